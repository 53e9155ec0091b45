import { Navigate, NavLink, Outlet } from 'react-router'
import { Fingerprint, Flag, Gavel, Link2, LogOut, ScrollText, Users } from 'lucide-react'
import { useAuth } from '@/auth/session'
import { StepUpProvider } from '@/auth/step-up'
import { Logo } from '@/components/logo'
import { SkipLink } from '@/components/skip-link'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'

const SECTIONS = [
  { to: '/ops', label: 'Disputes', icon: Gavel, end: true },
  { to: '/ops/flags', label: 'Flags', icon: Flag, end: false },
  { to: '/ops/users', label: 'Users', icon: Users, end: false },
  { to: '/ops/links', label: 'Link changes', icon: Link2, end: false },
  { to: '/ops/audit', label: 'Audit log', icon: ScrollText, end: false },
  { to: '/ops/passkeys', label: 'Passkeys', icon: Fingerprint, end: false },
]

/** The operator's desk: its own header and sections; only an OPERATOR gets in (others go to their dashboard). */
export function OpsShell() {
  const { user, logout } = useAuth()
  if (!user) return null
  if (user.role !== 'OPERATOR') return <Navigate to="/dashboard" replace />
  return (
    // adding or removing a passkey asks for a fresh code (the operator's factor is always on)
    <StepUpProvider>
      <div className="flex min-h-svh flex-col bg-background">
        <SkipLink />
        <header className="sticky top-0 z-20 border-b bg-background/95 backdrop-blur">
          <div className="mx-auto flex max-w-6xl items-center gap-3 px-3 py-2 sm:px-6">
            <Logo compact />
            <span className="font-semibold">Operator desk</span>
            <span className="ml-auto hidden truncate text-sm text-muted-foreground sm:inline">{user.email}</span>
            <Button variant="ghost" size="sm" onClick={logout} className="ml-auto sm:ml-0">
              <LogOut /> Sign out
            </Button>
          </div>
          {/* on a phone the five sections fit without their icons, and wrap rather than scroll sideways */}
          <nav aria-label="Operator desk" className="mx-auto max-w-6xl px-1 sm:px-4">
            <ul className="flex flex-wrap gap-x-1">
              {SECTIONS.map(({ to, label, icon: Icon, end }) => (
                <li key={to}>
                  <NavLink
                    to={to}
                    end={end}
                    className={({ isActive }) =>
                      cn(
                        'flex items-center gap-1.5 whitespace-nowrap border-b-2 px-2 py-2 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring sm:px-3',
                        isActive ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
                      )
                    }
                  >
                    <Icon aria-hidden="true" className="hidden size-4 sm:block" /> {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-3 py-5 outline-none sm:px-6">
          <Outlet />
        </main>
      </div>
    </StepUpProvider>
  )
}
