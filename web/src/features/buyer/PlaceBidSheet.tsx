import { Zap } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { Sheet, SheetContent } from '@/components/ui/sheet'
import { Spinner } from '@/components/ui/spinner'
import { Switch } from '@/components/ui/switch'
import { formatCents, formatMoney } from '@/lib/money'
import { MoneyInput } from '@/components/money-input'
import { bidAgainIncrement } from '@/lib/bids'
import { useFocusReturn } from '@/hooks/use-focus-return'
import type { Slot } from '@/api/types'
import { LargeBidDialog } from './LargeBidDialog'

import { BidFigures } from './components/BidFigures'
import { CommentChooser } from './components/CommentChooser'
import { usePlaceBidForm, type BidSuggestion } from './hooks/use-place-bid-form'


/** The bid panel. `suggest="again"` is Bid Again's (My Bids and the outbid toast): the amount starts at the current
 *  bid plus the spec's 10, and the brand still sees it, may change it, and presses Place Bid. */
export function PlaceBidSheet({ slot, onOpenChange, suggest = 'next' }: { slot: Slot | null; onOpenChange: (open: boolean) => void; suggest?: BidSuggestion }) {
  const focusReturn = useFocusReturn()
  return (
    <Sheet open={slot !== null} onOpenChange={onOpenChange}>
      <SheetContent data-bid-panel className="w-full overflow-y-auto sm:max-w-md" aria-describedby={undefined} {...focusReturn}>
        {slot && <PlaceBidForm key={`${slot.id}:${suggest}`} slot={slot} suggest={suggest} onDone={() => onOpenChange(false)} />}
      </SheetContent>
    </Sheet>
  )
}

function PlaceBidForm({ slot: opened, suggest, onDone }: { slot: Slot; suggest: BidSuggestion; onDone: () => void }) {
  const {
    slot, now, closed, amount, setAmount, warning, autoBid, setAutoBid, maxAutoBid, setMaxAutoBid, largeBid, setLargeBid,
    comments, commentsLoading, mine, myMaximum, keepable, notConnected, mode2, setMode, selected, setSelected, text, setText, brand,
    place, buyNow, connect, onSubmit, onBuyNow, typedReading, busy, canBuyNow,
  } = usePlaceBidForm(opened, onDone, suggest)

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-1 flex-col">
      <BidFigures slot={slot} closed={closed} now={now} mine={mine} myMaximum={myMaximum} />

      <div className="flex flex-1 flex-col gap-6 p-4">
        <section className="grid gap-3" aria-labelledby="bid-step-1">
          <h3 id="bid-step-1" className="text-sm font-semibold">
            Step 1: Your bid amount
          </h3>
          <div className="grid gap-2">
            <Label htmlFor="bid-amount">Bid amount (USD)</Label>
            <MoneyInput id="bid-amount" value={amount} onValueChange={setAmount} problem={warning} />
            {suggest === 'again' && <p className="text-xs text-muted-foreground">Bid Again starts at the current bid plus {formatMoney(bidAgainIncrement())}; change it if you like.</p>}
          </div>
          <div className="flex items-center justify-between gap-3 rounded-lg border p-3">
            <div>
              <Label htmlFor="auto-bid" className="flex items-center gap-1">
                <Zap className="size-4 text-primary" aria-hidden="true" /> Automatic bidding
              </Label>
              <p className="text-xs text-muted-foreground">We bid for you, one step at a time, up to your maximum.</p>
            </div>
            <Switch id="auto-bid" checked={autoBid} onCheckedChange={setAutoBid} />
          </div>
          {autoBid && (
            <div className="grid gap-2">
              <Label htmlFor="max-auto-bid">Maximum auto-bid (USD)</Label>
              <MoneyInput id="max-auto-bid" value={maxAutoBid} onValueChange={setMaxAutoBid} />
            </div>
          )}
        </section>

        <CommentChooser
          comments={comments}
          loading={commentsLoading}
          notConnected={notConnected}
          keepable={keepable}
          mine={mine}
          mode={mode2}
          onMode={setMode}
          selected={selected}
          onSelect={setSelected}
          text={text}
          onText={setText}
          brand={brand}
          connect={connect}
        />
      </div>

      <div className="sticky bottom-0 grid gap-2 border-t bg-background p-4">
        {closed && (
          <p role="status" className="text-center text-sm font-medium text-muted-foreground">
            This auction has closed.
          </p>
        )}
        <Button type="submit" disabled={busy || closed} className="w-full">
          {place.isPending && <Spinner />}
          {place.isPending ? 'Placing Bid...' : `Place Bid: ${typedReading.ok ? formatCents(typedReading.cents) : '$0.00'}`}
        </Button>
        {canBuyNow && (
          <Button type="button" variant="outline" disabled={busy} className="w-full" onClick={onBuyNow}>
            {buyNow.isPending && <Spinner />} Buy Now for {formatMoney(slot.buyNowPrice)}
          </Button>
        )}
      </div>
      <LargeBidDialog
        bid={largeBid}
        onCancel={() => setLargeBid(null)}
        onConfirm={() => {
          if (largeBid) place.mutate(largeBid.body)
          setLargeBid(null)
        }}
      />
    </form>
  )
}

