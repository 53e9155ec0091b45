/** social and marketplace answer a person's name as null when they do not know it (an account whose profile
 *  never reached them): the desk says so rather than printing "null". */
export const brandName = (name: string | null) => name ?? 'Unknown brand'
export const creatorName = (name: string | null) => name ?? 'unknown creator'
export const accountName = (name: string | null) => name ?? 'Unknown account'

export const disputeTitle = (d: { buyerName: string | null; creatorName: string | null }) => `${brandName(d.buyerName)} vs ${creatorName(d.creatorName)}`
