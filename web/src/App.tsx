import * as React from 'react'
import { BrowserRouter, Route, Routes, useLocation } from 'react-router'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { AuthProvider } from '@/auth/session'
import { ProtectedRoute, PublicOnlyRoute } from '@/auth/guards'
import { RoleGate } from '@/components/role-gate'
import { PublicLayout } from '@/layouts/PublicLayout'
import { Toaster } from '@/components/ui/sonner'
import { pageTitle } from '@/titles'
import { isRefused } from '@/api/errors'

// Route-level code splitting: every page is its own chunk.
const LandingPage = React.lazy(() => import('@/pages/landing/LandingPage'))
const LoginPage = React.lazy(() => import('@/pages/auth/LoginPage'))
const InfluencerSignupPage = React.lazy(() => import('@/pages/auth/SignupPage').then((m) => ({ default: m.InfluencerSignupPage })))
const BuyerSignupPage = React.lazy(() => import('@/pages/auth/SignupPage').then((m) => ({ default: m.BuyerSignupPage })))
const ResetPasswordPage = React.lazy(() => import('@/pages/auth/ResetPasswordPage'))
const BlogIndexPage = React.lazy(() => import('@/pages/blog/BlogIndexPage'))
const BlogPostPage = React.lazy(() => import('@/pages/blog/BlogPostPage'))
const PrivacyPage = React.lazy(() => import('@/pages/legal/PrivacyPage'))
const TermsPage = React.lazy(() => import('@/pages/legal/TermsPage'))
const NotFoundPage = React.lazy(() => import('@/pages/NotFoundPage'))
const AppShell = React.lazy(() => import('@/layouts/AppShell').then((m) => ({ default: m.AppShell })))
const DashboardPage = React.lazy(() => import('@/pages/app/DashboardPage'))
const SettingsPage = React.lazy(() => import('@/features/settings/SettingsPage'))
const MarketplacePage = React.lazy(() => import('@/features/buyer/MarketplacePage'))
const PostManagerPage = React.lazy(() => import('@/features/creator/PostManagerPage'))
const ApprovalsPage = React.lazy(() => import('@/features/creator/ApprovalsPage'))
const MyBidsPage = React.lazy(() => import('@/features/buyer/MyBidsPage'))
const PlacementPage = React.lazy(() => import('@/features/buyer/PlacementPage'))
const CampaignsPage = React.lazy(() => import('@/features/campaigns/CampaignsPage'))
const CampaignPage = React.lazy(() => import('@/features/campaigns/CampaignPage'))
const NewCampaignPage = React.lazy(() => import('@/features/campaigns/CampaignFormPage').then((m) => ({ default: m.NewCampaignPage })))
const EditCampaignPage = React.lazy(() => import('@/features/campaigns/CampaignFormPage').then((m) => ({ default: m.EditCampaignPage })))
const CreatorPlacementPage = React.lazy(() => import('@/features/creator/PlacementPage'))
const EarningsPage = React.lazy(() => import('@/features/creator/EarningsPage'))
const NotificationsPage = React.lazy(() => import('@/features/notifications/NotificationsPage'))
const OpsShell = React.lazy(() => import('@/features/ops/OpsShell').then((m) => ({ default: m.OpsShell })))
const OpsDisputesPage = React.lazy(() => import('@/features/ops/DisputesPage'))
const OpsDisputePage = React.lazy(() => import('@/features/ops/DisputeDetailPage'))
const OpsFlagsPage = React.lazy(() => import('@/features/ops/FlagsPage'))
const OpsUsersPage = React.lazy(() => import('@/features/ops/UsersPage'))
const OpsAuditPage = React.lazy(() => import('@/features/ops/AuditPage'))
const OpsLinkChangesPage = React.lazy(() => import('@/features/ops/LinkChangesPage'))
const OpsPasskeysPage = React.lazy(() => import('@/features/settings/OperatorPasskeysPage'))

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route element={<PublicOnlyRoute />}>
          <Route index element={<LandingPage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="signup/influencer" element={<InfluencerSignupPage />} />
          <Route path="signup/buyer" element={<BuyerSignupPage />} />
        </Route>
        <Route path="blog" element={<BlogIndexPage />} />
        <Route path="blog/:slug" element={<BlogPostPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route path="terms" element={<TermsPage />} />
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route path="reset-password/:token" element={<ResetPasswordPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      <Route element={<ProtectedRoute />}>
        <Route
          element={
            <React.Suspense fallback={null}>
              <AppShell />
            </React.Suspense>
          }
        >
          <Route path="dashboard" element={<DashboardPage />} />
          <Route element={<RoleGate role="BUYER" />}>
            <Route path="marketplace" element={<MarketplacePage />} />
            <Route path="my-bids" element={<MyBidsPage />} />
            <Route path="my-bids/:bidId" element={<PlacementPage />} />
            <Route path="campaigns" element={<CampaignsPage />} />
            <Route path="campaigns/new" element={<NewCampaignPage />} />
            <Route path="campaigns/:campaignId" element={<CampaignPage />} />
            <Route path="campaigns/:campaignId/edit" element={<EditCampaignPage />} />
          </Route>
          <Route element={<RoleGate role="INFLUENCER" />}>
            <Route path="post-manager" element={<PostManagerPage />} />
            <Route path="approvals" element={<ApprovalsPage />} />
            <Route path="placements/:bidId" element={<CreatorPlacementPage />} />
            <Route path="earnings" element={<EarningsPage />} />
          </Route>
          <Route path="settings" element={<SettingsPage />} />
          <Route path="notifications" element={<NotificationsPage />} />
        </Route>
        <Route
          path="ops"
          element={
            <React.Suspense fallback={null}>
              <OpsShell />
            </React.Suspense>
          }
        >
          <Route index element={<OpsDisputesPage />} />
          <Route path="disputes/:disputeId" element={<OpsDisputePage />} />
          <Route path="flags" element={<OpsFlagsPage />} />
          <Route path="users" element={<OpsUsersPage />} />
          <Route path="links" element={<OpsLinkChangesPage />} />
          <Route path="audit" element={<OpsAuditPage />} />
          <Route path="passkeys" element={<OpsPasskeysPage />} />
        </Route>
      </Route>
    </Routes>
  )
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // a refused read (422) is not asked again: the same question gets the same answer
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: (count, error) => !isRefused(error) && count < 1 },
    },
  })
}

/** The app inside a router: the browser's (App) or, at build time, a static one for one public page (entry-server). */
export function AppBody() {
  return (
    <>
      <RouteEffects />
      <AuthProvider>
        <AppRoutes />
      </AuthProvider>
    </>
  )
}

export function App() {
  const [queryClient] = React.useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppBody />
      </BrowserRouter>
      <Toaster />
    </QueryClientProvider>
  )
}


function RouteEffects() {
  const { pathname, hash } = useLocation()
  React.useEffect(() => {
    // blog posts set their own title once loaded
    if (!pathname.startsWith('/blog/')) document.title = pageTitle(pathname)
  }, [pathname])
  React.useEffect(() => {
    if (hash) {
      document.getElementById(hash.slice(1))?.scrollIntoView()
      return
    }
    window.scrollTo(0, 0)
  }, [pathname, hash])
  return null
}
