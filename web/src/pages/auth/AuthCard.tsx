import * as React from 'react'
import { Link } from 'react-router'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'

export function AuthCard({ title, description, children, footer }: { title: string; description?: React.ReactNode; children: React.ReactNode; footer?: React.ReactNode }) {
  return (
    <div className="relative flex flex-1 items-start justify-center px-4 py-10 sm:items-center sm:py-16">
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(40rem_20rem_at_50%_0%,oklch(0.93_0.06_290/.7),transparent)]" />
      <Card className="w-full max-w-md gap-5 shadow-md">
        <CardHeader className="text-center">
          <CardTitle className="text-2xl" role="heading" aria-level={1}>
            {title}
          </CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent>{children}</CardContent>
        {footer && <div className="border-t px-6 pt-5 text-center text-sm text-muted-foreground">{footer}</div>}
      </Card>
    </div>
  )
}

/** A link in an auth card's footer (to another of the auth pages). */
export function AuthLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link className="font-medium text-primary hover:underline" to={to}>
      {children}
    </Link>
  )
}
