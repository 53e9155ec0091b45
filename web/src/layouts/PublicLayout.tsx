import * as React from 'react'
import { Link, NavLink, Outlet, useLocation } from 'react-router'
import { Menu, X } from 'lucide-react'
import { Logo } from '@/components/logo'
import { Button } from '@/components/ui/button'
import { SkipLink } from '@/components/skip-link'
import { useAuth } from '@/auth/session'
import { cn } from '@/lib/utils'

export function PublicLayout() {
  return (
    <div className="flex min-h-svh flex-col">
      <SkipLink />
      <TopBar />
      {/* a screen tall at least: the footer starts below the fold on every page, so it never jumps into view when a
          page's chunk or content arrives, whatever the page's height */}
      <main id="main" tabIndex={-1} className="flex min-h-svh flex-1 flex-col outline-none">
        <React.Suspense fallback={<PageFallback />}>
          <Outlet />
        </React.Suspense>
      </main>
      <Footer />
    </div>
  )
}

export function PageFallback() {
  return <div role="status" aria-label="Loading page" className="flex-1" />
}

function TopBar() {
  const [open, setOpen] = React.useState(false)
  const { user } = useAuth()
  const location = useLocation()
  const close = () => setOpen(false)

  // close the phone menu whenever the route changes
  const [lastPath, setLastPath] = React.useState(location.pathname)
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname)
    setOpen(false)
  }

  React.useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open])

  const links = (
    <>
      <Button asChild variant="ghost" className="justify-start md:justify-center">
        <NavLink to="/blog" onClick={close}>
          Blog
        </NavLink>
      </Button>
      {user ? (
        <Button asChild>
          <Link to="/dashboard" onClick={close}>
            Go to Dashboard
          </Link>
        </Button>
      ) : (
        <>
          <Button asChild variant="outline" className="justify-start md:justify-center">
            <Link to="/login" onClick={close}>
              Sign In
            </Link>
          </Button>
          <Button asChild>
            <Link to="/signup/buyer" onClick={close}>
              Get Started
            </Link>
          </Button>
        </>
      )}
    </>
  )

  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Link to="/" onClick={close} className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50" aria-label="Pinbid home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-2 md:flex">
          {links}
        </nav>
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-expanded={open}
          aria-controls="mobile-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? <X className="size-5" /> : <Menu className="size-5" />}
        </Button>
      </div>
      <nav
        id="mobile-menu"
        aria-label="Main"
        hidden={!open}
        className={cn('border-t bg-background px-4 pt-3 pb-4 md:hidden', open && 'animate-fade-in')}
      >
        <div className="flex flex-col gap-2">{links}</div>
      </nav>
    </header>
  )
}

const noChange = () => () => {}

function Footer() {
  // the year of the visit: none in a page prerendered at build time, and so none while such a page is hydrated,
  // then this year's (a build from last December still matches its HTML in January)
  const year = React.useSyncExternalStore(
    noChange,
    () => new Date().getFullYear(),
    () => null,
  )
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div className="space-y-3">
          <Logo />
          <p className="max-w-xs text-sm text-muted-foreground">
            The marketplace for pinned comments. Creators auction the most-read line under their posts; brands bid for it.
          </p>
        </div>
        <FooterColumn title="Product">
          <FooterLink to="/signup/influencer">For Creators</FooterLink>
          <FooterLink to="/signup/buyer">For Brands</FooterLink>
          <FooterLink to="/login">Sign In</FooterLink>
        </FooterColumn>
        <FooterColumn title="Resources">
          <FooterLink to="/blog">Blog</FooterLink>
          <FooterLink to="/#faq">FAQ</FooterLink>
          <FooterLink to="/reset-password">Reset password</FooterLink>
        </FooterColumn>
        <FooterColumn title="Legal">
          <FooterLink to="/privacy">Privacy Policy</FooterLink>
          <FooterLink to="/terms">Terms of Service</FooterLink>
          <a className="text-sm text-muted-foreground hover:text-foreground" href="mailto:support@pinbid.app">
            support@pinbid.app
          </a>
        </FooterColumn>
      </div>
      <div className="border-t">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-5 text-xs text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>© {year && `${year} `}Pinbid. All rights reserved.</p>
          <p>Pinbid is not affiliated with Instagram or Meta.</p>
        </div>
      </div>
    </footer>
  )
}

function FooterColumn({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h2 className="mb-3 text-sm font-semibold">{title}</h2>
      <ul className="space-y-2">{React.Children.map(children, (c) => <li>{c}</li>)}</ul>
    </div>
  )
}

function FooterLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link to={to} className="text-sm text-muted-foreground transition-colors hover:text-foreground">
      {children}
    </Link>
  )
}
