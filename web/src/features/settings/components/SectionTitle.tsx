import type * as React from 'react'
import type { LucideIcon } from 'lucide-react'
import { TitledCard } from '@/components/titled-card'

/** One card of Settings: its titled heading with an icon, a line on what it is for, then its content. */
export function SettingsCard({ icon: Icon, title, description, contentClassName, children }: { icon: LucideIcon; title: string; description: React.ReactNode; contentClassName?: string; children: React.ReactNode }) {
  return (
    <TitledCard
      // Settings has no heading between the page's h1 and its cards
      level={2}
      titleClassName="flex items-center gap-2"
      title={
        <>
          <Icon className="size-5 text-primary" aria-hidden="true" />
          {title}
        </>
      }
      description={description}
      contentClassName={contentClassName}
    >
      {children}
    </TitledCard>
  )
}
