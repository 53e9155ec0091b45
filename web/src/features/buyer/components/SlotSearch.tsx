import { Search } from 'lucide-react'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'

/** The brand's search over pin slots, as the marketplace and the dashboard show it. */
export function SlotSearch({ id, value, onChange, className }: { id: string; value: string; onChange: (value: string) => void; className?: string }) {
  return (
    <div className={className ? `relative ${className}` : 'relative'}>
      <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
      <Label htmlFor={id} className="sr-only">
        Search pin slots
      </Label>
      <Input id={id} type="search" value={value} onChange={(e) => onChange(e.target.value)} placeholder="Search by title, description or creator..." className="pl-9" />
    </div>
  )
}
