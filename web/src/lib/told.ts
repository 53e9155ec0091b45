/**
 * One action, one toast. An action of this tab that toasts its outcome (End Auction, Pin Comment, I pinned it,
 * Buy Now, Report a problem) also makes the server send a notice to the same person a moment later; that notice
 * goes into the bell and the list, but is not toasted a second time. Each expected notice is passed over once, and
 * only within `TOLD_FOR_MS` of the action.
 */
export const TOLD_FOR_MS = 60_000

const expected = new Map<string, number[]>()

/** The notice kinds (identity's `kind`) the action that just toasted will bring, one of each per call. */
export function toldByAction(kinds: readonly string[], now: number = Date.now()) {
  for (const kind of kinds) expected.set(kind, [...(expected.get(kind) ?? []), now + TOLD_FOR_MS])
}

/** Whether a notice of `kind` was already told by an action's toast; answering yes uses that expectation up. */
export function alreadyTold(kind: string, now: number = Date.now()): boolean {
  const live = (expected.get(kind) ?? []).filter((until) => until >= now)
  const told = live.length > 0
  if (told) live.shift()
  if (live.length) expected.set(kind, live)
  else expected.delete(kind)
  return told
}

/** Forget every expectation (a sign-out; tests). */
export function forgetTold() {
  expected.clear()
}
