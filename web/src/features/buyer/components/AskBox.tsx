import { Sparkles, X } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { rules } from '@/config'
import { askSentence, type AskParameter, type Understood } from '@/lib/ask'


/** The AI search box: the brand describes what it wants; the chips are the filters the server read from it, each
 *  removable, and the line under them says what the listing shows (read out when it changes). */
export function AskBox({ value, onChange, understood, onRemove }: { value: string; onChange: (value: string) => void; understood: Understood | null | undefined; onRemove: (parameter: AskParameter) => void }) {
  return (
    <div className="grid gap-2">
      <div className="relative">
        <Sparkles aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-primary" />
        <Label htmlFor="ai-search" className="sr-only">
          AI search: describe what you are looking for
        </Label>
        <Input
          id="ai-search"
          type="search"
          value={value}
          maxLength={rules().askMaxLength}
          onChange={(e) => onChange(e.target.value)}
          placeholder="AI search: e.g. fitness creators under $30 for home workouts"
          aria-describedby="ai-search-said"
          className="pl-9"
        />
      </div>
      {understood && understood.chips.length > 0 && (
        <ul aria-label="Filters read from your question" className="flex flex-wrap gap-2">
          {understood.chips.map((chip) => (
            <li key={chip.parameter}>
              <Badge variant="secondary" className="gap-1 pr-1">
                {chip.label}
                <button type="button" aria-label={`Remove ${chip.label}`} onClick={() => onRemove(chip.parameter)} className="rounded-full p-0.5 hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
                  <X aria-hidden="true" className="size-3" />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
      )}
      <p id="ai-search-said" aria-live="polite" className="text-sm break-words text-muted-foreground">
        {understood ? askSentence(understood) : ''}
      </p>
    </div>
  )
}
