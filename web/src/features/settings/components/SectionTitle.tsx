import * as React from 'react'
import type { LucideIcon } from 'lucide-react'
import { CardTitle } from '@/components/ui/card'

export function SectionTitle({ icon: Icon, children }: { icon: LucideIcon; children: React.ReactNode }) {
  return (
    // Settings has no heading between the page's h1 and its cards
    <CardTitle level={2} className="flex items-center gap-2">
      <Icon className="size-5 text-primary" aria-hidden="true" />
      {children}
    </CardTitle>
  )
}
