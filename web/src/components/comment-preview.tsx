import { disclosed, maxNewCommentLength } from '@/lib/disclosure'

/** A new comment as the creator's account will post it (the disclosure first, naming the brand), and how many
 *  characters are left. */
export function CommentPreview({ id, text, brand }: { id: string; text: string; brand: string }) {
  return (
    <p id={id} className="text-xs text-muted-foreground">
      Posted from the creator's account with the disclosure first: <span className="font-medium [overflow-wrap:anywhere] text-foreground">{disclosed(text || '…', brand)}</span>
      <span className="block tabular-nums">{maxNewCommentLength() - text.length} characters left</span>
    </p>
  )
}
