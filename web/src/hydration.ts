import { FALLBACK_RULES, type WebRules } from '@/api/rules'
import type { RuntimeConfig } from '@/config'

const markup = (r: WebRules) =>
  JSON.stringify([r.platformFeePercent, r.disclosureStart, r.handlePattern, r.maxCommentLength, r.maxNewCommentLength, r.maxHashtags, r.maxMentions])

/** Whether the page in `root` was prerendered (scripts/prerender.mjs) and can be hydrated as it is: it was rendered
 *  at build time for a signed-out visitor with the fallback rules (the default fee), so a visitor holding a token
 *  (the guards show a spinner, then send them on) or a server with other rules gets a fresh render instead of a
 *  hydration that would not match. */
export function canHydrate(root: Element, config: RuntimeConfig, token: string | null): boolean {
  return root.hasChildNodes() && token === null && markup(config.rules) === markup(FALLBACK_RULES)
}
