import * as React from 'react'
import type { LucideIcon } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'

export function SectionTitle({ icon: Icon, children }: { icon: LucideIcon; children: React.ReactNode }) {
  return (
    // Settings has no heading between the page's h1 and its cards
    <CardTitle level={2} className="flex items-center gap-2">
      <Icon className="size-5 text-primary" aria-hidden="true" />
      {children}
    </CardTitle>
  )
}

/** One card of Settings: its titled heading with an icon, a line on what it is for, then its content. */
export function SettingsCard({ icon, title, description, contentClassName, children }: { icon: LucideIcon; title: string; description: React.ReactNode; contentClassName?: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <SectionTitle icon={icon}>{title}</SectionTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  )
}
