/**
 * What the person was doing, remembered for this tab only:
 * - the account this tab has just created (its first visit is not a return);
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
    /** The value, kept. */
    peek(): string | null {
      try {
        return sessionStorage.getItem(key)
      } catch {
        return null
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
/** The account this tab has just created: its first visit is greeted "Welcome", not "Welcome back". */
export const newAccount = tabNote('pinbid.new.account')
