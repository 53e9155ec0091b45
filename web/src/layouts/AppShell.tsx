import * as React from 'react'
import { Link, NavLink, Outlet, useLocation } from 'react-router'
import { LogOut } from 'lucide-react'
import { useAuth } from '@/auth/session'
import { Logo } from '@/components/logo'
import { SkipLink } from '@/components/skip-link'
import { Separator } from '@/components/ui/separator'
import { FullPageSpinner } from '@/components/ui/spinner'
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarInset,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from '@/components/ui/sidebar'
import { LiveProvider } from '@/api/live/LiveProvider'
import { newAccount } from '@/lib/return-notes'
import { StepUpProvider } from '@/auth/step-up'
import { NotificationBell } from '@/features/notifications/NotificationBell'
import { menuFor, roleLabel } from './menus'

/** '/post-manager' -> 'Post Manager': the capitalised current path. */
export function pageTitle(pathname: string) {
  const first = pathname.replace(/^\/+/, '').split('/')[0] ?? ''
  return first
    .split('-')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')
}

/** A brand-new account's first visit is greeted "Welcome"; every later one (a log in) "Welcome back". */
function greeting(userId: string): string {
  return newAccount.peek() === userId ? 'Welcome' : 'Welcome back'
}

export function AppShell() {
  const { user } = useAuth()
  const location = useLocation()
  // "Without a user, pages render without the shell."
  if (!user) return <Outlet />

  const heading = location.pathname === '/dashboard' ? `${greeting(user.id)}, ${user.name}` : pageTitle(location.pathname)

  return (
    <LiveProvider role={user.role}>
      <StepUpProvider>
        <SidebarProvider>
          <SkipLink />
          <AppSidebar />
          <SidebarInset>
            <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b bg-background/90 px-3 backdrop-blur sm:px-4">
              <SidebarTrigger />
              <Separator orientation="vertical" className="mr-1 h-5!" />
              <h1 className="min-w-0 flex-1 truncate text-base font-semibold sm:text-lg">{heading}</h1>
              <NotificationBell />
            </header>
            <main id="main" tabIndex={-1} className="flex flex-1 flex-col px-4 py-6 outline-none sm:px-6 lg:px-8">
              <React.Suspense fallback={<FullPageSpinner />}>
                <Outlet />
              </React.Suspense>
            </main>
          </SidebarInset>
        </SidebarProvider>
      </StepUpProvider>
    </LiveProvider>
  )
}

function AppSidebar() {
  const { user, logout } = useAuth()
  const { isMobile, setOpenMobile } = useSidebar()
  const location = useLocation()
  const menu = menuFor(user?.role)
  const closeMobile = () => isMobile && setOpenMobile(false)

  return (
    <Sidebar label="App navigation">
      <SidebarHeader className="h-14 justify-center border-b px-2">
        <Link
          to="/dashboard"
          onClick={closeMobile}
          aria-label="Pinbid dashboard"
          className="flex items-center gap-2 overflow-hidden rounded-md px-1 outline-none focus-visible:ring-2 focus-visible:ring-sidebar-ring group-data-[collapsible=icon]:px-0"
        >
          <Logo className="[&>svg]:size-7" />
        </Link>
      </SidebarHeader>
      <SidebarContent>
        {menu && (
          <SidebarGroup>
            <SidebarGroupLabel>{menu.label}</SidebarGroupLabel>
            <SidebarMenu>
              {menu.items.map((item) => {
                const active = location.pathname === item.url || location.pathname.startsWith(`${item.url}/`)
                return (
                  <SidebarMenuItem key={item.url}>
                    <SidebarMenuButton asChild isActive={active} tooltip={item.title}>
                      <NavLink to={item.url} onClick={closeMobile} aria-current={active ? 'page' : undefined}>
                        <item.icon />
                        <span>{item.title}</span>
                      </NavLink>
                    </SidebarMenuButton>
                  </SidebarMenuItem>
                )
              })}
            </SidebarMenu>
          </SidebarGroup>
        )}
      </SidebarContent>
      <SidebarFooter className="border-t">
        {user && (
          <div className="flex items-center gap-2.5 overflow-hidden px-1 py-1 group-data-[collapsible=icon]:hidden">
            <div aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/15 text-sm font-semibold text-primary">
              {user.name.charAt(0).toUpperCase()}
            </div>
            <div className="min-w-0 text-sm leading-tight">
              <p className="truncate font-medium" data-testid="sidebar-user-name">
                {user.name}
              </p>
              <p className="truncate text-xs text-muted-foreground">{roleLabel(user.role)}</p>
            </div>
          </div>
        )}
        <SidebarMenu>
          <SidebarMenuItem>
            <SidebarMenuButton tooltip="Sign Out" onClick={logout} className="text-muted-foreground hover:text-destructive">
              <LogOut />
              <span>Sign Out</span>
            </SidebarMenuButton>
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarFooter>
    </Sidebar>
  )
}
