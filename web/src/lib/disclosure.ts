/** Instagram's rules for a sponsored comment as the server applies them (pinbid_kit/instagram_rules.py, served
 * in the runtime config): the disclosure opens the comment. Shown before submitting; the server checks again
 * and has the last word. */
import { rules } from '@/config'

/** A new text leaves room for the disclosure Pinbid puts in front of it. */
export function maxNewCommentLength(): number {
  return rules().maxNewCommentLength
}

export function handlePattern(): RegExp {
  return new RegExp(rules().handlePattern)
}

export function brandLabel(instagramHandle?: string | null, businessName?: string | null, name?: string | null): string {
  const handle = (instagramHandle ?? '').trim().replace(/^@/, '')
  if (handlePattern().test(handle)) return `@${handle}`
  return (businessName ?? name ?? '').split(/\s+/).filter(Boolean).join(' ') || 'a brand partner'
}

export function startsWithDisclosure(text: string): boolean {
  const { source, flags } = rules().disclosureStart
  return new RegExp(source, flags).test(text.normalize('NFKC'))
}

/** A new comment as it will be posted: the disclosure first, then the words (spaces tidied). */
export function disclosed(text: string, brand: string): string {
  const words = text.split(/\s+/).filter(Boolean).join(' ')
  return startsWithDisclosure(words) ? words : `Ad · ${brand}: ${words}`
}
