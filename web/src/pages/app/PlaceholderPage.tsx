import { Link } from 'react-router'
import { Construction, type LucideIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'

export function PlaceholderPage({ icon: Icon = Construction, title, intro, features }: { icon?: LucideIcon; title: string; intro: string; features: string[] }) {
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-1 flex-col items-center justify-center py-10 text-center">
      <div className="flex size-14 items-center justify-center rounded-2xl bg-primary/10 text-primary">
        <Icon className="size-7" aria-hidden="true" />
      </div>
      <h2 className="mt-5 text-2xl font-bold">{title}</h2>
      <p className="mt-2 max-w-xl text-muted-foreground">{intro}</p>
      <div className="mt-8 w-full rounded-2xl border border-dashed bg-muted/30 p-6 text-left">
        <p className="mb-3 text-sm font-semibold">Coming to this page</p>
        <ul className="grid gap-2 text-sm text-muted-foreground sm:grid-cols-2">
          {features.map((f) => (
            <li key={f} className="flex gap-2">
              <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-primary/60" />
              {f}
            </li>
          ))}
        </ul>
      </div>
      <Button asChild variant="outline" className="mt-8">
        <Link to="/dashboard">Back to Dashboard</Link>
      </Button>
    </div>
  )
}
