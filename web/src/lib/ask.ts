/** The AI search box: what the server read from the brand's question, said in one line (issue 35). */
import type { Schemas } from '@/api/client'

export type Understood = Schemas['UnderstoodOut']
export type AskParameter = Schemas['ChipOut']['parameter']

/** The line under the box, read out by screen readers when it changes:
 *  "Showing Fitness · up to $30, ranked by how well they match 'home workouts'". */
export function askSentence(understood: Understood): string {
  const filtered = understood.sentence ? `Showing ${understood.sentence}` : 'Showing every open slot'
  const ranked = understood.rankedBy ? `, ranked by how well they match '${understood.rankedBy}'` : ''
  const nothingRead = !understood.sentence && !understood.rankedBy ? ': nothing in the question could be read as a filter' : ''
  const setAside = understood.ignored.map((i) => ` Not applied: '${i.phrase}' (${i.reason})`).join('')
  return `${filtered}${ranked}${nothingRead}.${setAside}`
}

/** The listing query's part for a question: the question itself and the chips the brand removed. */
export function askQuery(question: string, removed: AskParameter[]): { ask?: string; ignore?: AskParameter[] } {
  const ask = question.trim()
  if (!ask) return {}
  return removed.length ? { ask, ignore: removed } : { ask }
}
