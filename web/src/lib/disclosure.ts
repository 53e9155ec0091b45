/** Instagram's rules for a sponsored comment as the server applies them (pinbid_kit/instagram_rules.py): the
 * disclosure opens the comment. Shown before submitting; the server checks again and has the last word. */

export const MAX_COMMENT_LENGTH = 2200
const LONGEST_PREFIX = `Ad · @${'x'.repeat(30)}: `
/** A new text leaves room for the disclosure Pinbid puts in front of it. */
export const MAX_NEW_COMMENT_LENGTH = MAX_COMMENT_LENGTH - LONGEST_PREFIX.length

const DISCLOSURE_START = /^\s*(?:#?ad\b|#?advertisement\b|#?sponsored\b|paid\s+partnership\b|#?partner(?:ed|ship)?\b)/i

export function brandLabel(instagramHandle?: string | null, businessName?: string | null, name?: string | null): string {
  const handle = (instagramHandle ?? '').trim().replace(/^@/, '')
  if (/^[A-Za-z0-9._]{1,30}$/.test(handle)) return `@${handle}`
  return (businessName ?? name ?? '').split(/\s+/).filter(Boolean).join(' ') || 'a brand partner'
}

export function startsWithDisclosure(text: string): boolean {
  return DISCLOSURE_START.test(text.normalize('NFKC'))
}

/** A new comment as it will be posted: the disclosure first, then the words (spaces tidied). */
export function disclosed(text: string, brand: string): string {
  const words = text.split(/\s+/).filter(Boolean).join(' ')
  return startsWithDisclosure(words) ? words : `Ad · ${brand}: ${words}`
}
