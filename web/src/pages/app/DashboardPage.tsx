import { Link, Navigate } from 'react-router'
import { ArrowRight, Camera } from 'lucide-react'
import { useAuth } from '@/auth/session'
import { menuFor } from '@/layouts/menus'
import { Button } from '@/components/ui/button'

function greeting(date = new Date()) {
  const h = date.getHours()
  if (h < 12) return 'Good morning'
  if (h < 18) return 'Good afternoon'
  return 'Good evening'
}

export default function DashboardPage() {
  const { user } = useAuth()
  const menu = menuFor(user?.role)
  if (!user || !menu) return <Navigate to="/login" replace />
  const shortcuts = menu.items.filter((i) => i.url !== '/dashboard')
  const firstName = user.name.split(' ')[0]
  const influencer = user.role === 'INFLUENCER'

  return (
    <div className="mx-auto w-full max-w-5xl space-y-8">
      <section className="rounded-2xl border bg-gradient-to-br from-primary/10 via-background to-brand-2/10 p-6 sm:p-8">
        <p className="text-sm font-medium text-primary">{menu.label}</p>
        <h2 className="mt-1 text-2xl font-bold sm:text-3xl">
          {greeting()}, {firstName}
        </h2>
        <p className="mt-2 max-w-2xl text-muted-foreground">
          {influencer
            ? 'List pinned-comment slots on your posts, approve the winning comments and get paid. Start from one of the tools below.'
            : 'Find pinned-comment slots under posts your audience already watches, bid with a ceiling, and track every placement. Start from one of the tools below.'}
        </p>
      </section>

      {influencer && !user.instagramConnected && (
        <section className="flex flex-col gap-4 rounded-2xl border border-amber-300/60 bg-amber-50 p-5 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex gap-3">
            <div className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-amber-100 text-amber-700">
              <Camera className="size-5" aria-hidden="true" />
            </div>
            <div>
              <h2 className="font-semibold">Connect your Instagram account</h2>
              <p className="text-sm text-muted-foreground">You need a connected Business or Creator account before you can list pin slots.</p>
            </div>
          </div>
          <Button asChild variant="outline" className="bg-background">
            <Link to="/settings">Go to Settings</Link>
          </Button>
        </section>
      )}

      <section aria-labelledby="shortcuts-title">
        <h2 id="shortcuts-title" className="mb-4 text-lg font-semibold">
          Your tools
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          {shortcuts.map((item) => (
            <li key={item.url}>
              <Link
                to={item.url}
                className="group flex h-full items-start gap-4 rounded-xl border bg-card p-5 shadow-xs transition-all outline-none hover:border-primary/40 hover:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                  <item.icon className="size-5" aria-hidden="true" />
                </div>
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-1 font-semibold">
                    {item.title}
                    <ArrowRight className="size-4 opacity-0 transition-all group-hover:translate-x-0.5 group-hover:opacity-100" aria-hidden="true" />
                  </p>
                  <p className="mt-1 text-sm text-muted-foreground">{item.description}</p>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}
