import { AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle } from '@/components/ui/alert-dialog'
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
      <AlertDialogContent>
        {bid && (
          <>
            <AlertDialogHeader>
              <AlertDialogTitle>Bid {formatCents(bid.highestCents)}?</AlertDialogTitle>
              <AlertDialogDescription>
                {bid.automatic ? 'Your maximum' : 'Your bid'} of {formatCents(bid.highestCents)} is {bid.ratio.toFixed(1)} times the current price of {formatMoney(bid.price)}.
                A leading bid cannot be cancelled.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Change amount</AlertDialogCancel>
              <AlertDialogAction onClick={onConfirm}>Bid {formatCents(bid.highestCents)}</AlertDialogAction>
            </AlertDialogFooter>
          </>
        )}
      </AlertDialogContent>
    </AlertDialog>
  )
}
