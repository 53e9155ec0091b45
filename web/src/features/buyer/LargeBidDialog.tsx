import { AlertDialog } from '@/components/ui/alert-dialog'
import { ConfirmDialogContent } from '@/components/confirm-button'
import { formatCents, formatMoney } from '@/lib/money'

export interface LargeBid {
  /** The amount the bid may reach: its maximum with automatic bidding, else its amount. */
  highestCents: number
  automatic: boolean
  ratio: number
  /** The current price it is compared with, in dollars. */
  price: number
}

/** Asked before a bid far above the current price: a leading bid cannot be cancelled, so the amount is named first. */
export function LargeBidDialog({ bid, onConfirm, onCancel }: { bid: LargeBid | null; onConfirm: () => void; onCancel: () => void }) {
  return (
    <AlertDialog open={bid !== null} onOpenChange={(open) => !open && onCancel()}>
      {bid && (
        <ConfirmDialogContent
          title={`Bid ${formatCents(bid.highestCents)}?`}
          description={
            <>
              {bid.automatic ? 'Your maximum' : 'Your bid'} of {formatCents(bid.highestCents)} is {bid.ratio.toFixed(1)} times the current price of {formatMoney(bid.price)}.
              A leading bid cannot be cancelled.
            </>
          }
          cancelLabel="Change amount"
          confirmLabel={`Bid ${formatCents(bid.highestCents)}`}
          onConfirm={onConfirm}
        />
      )}
    </AlertDialog>
  )
}
