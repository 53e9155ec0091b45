/**
 * What the brand was doing when the browser left for another site, remembered for this tab only:
 * - the slot whose bid panel started an Instagram connection (social sends brands back to /marketplace);
 * - the bid being paid (payments sends the brand back to /my-bids?payment=…, which does not say which bid).
 */
function tabNote(key: string) {
  return {
    remember(value: string) {
      try {
        sessionStorage.setItem(key, value)
      } catch {
        /* storage unavailable: the page opens as it would without the note */
      }
    },
    /** The value, once: reading it forgets it. */
    take(): string | null {
      try {
        const value = sessionStorage.getItem(key)
        sessionStorage.removeItem(key)
        return value
      } catch {
        return null
      }
    },
  }
}

export const connectReturn = tabNote('pinbid.connect.slot')
export const payingBid = tabNote('pinbid.paying.bid')
