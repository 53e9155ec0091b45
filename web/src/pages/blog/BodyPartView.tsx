import type { Article } from '@/api/blog'
import { FormulaDemo, StepsDemo } from './demos'

/** One part of an article's body: HTML (sanitised by the content service), or an mdx article's demo. */
export function BodyPartView({ part }: { part: Article['body'][number] }) {
  if (part.kind === 'html') return <div className="article-html" dangerouslySetInnerHTML={{ __html: part.html }} />
  return part.kind === 'formula' ? <FormulaDemo /> : <StepsDemo />
}
