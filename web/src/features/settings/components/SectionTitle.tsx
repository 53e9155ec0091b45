import * as React from 'react'
import type { LucideIcon } from 'lucide-react'
import { CardTitle } from '@/components/ui/card'

export function SectionTitle({ icon: Icon, children }: { icon: LucideIcon; children: React.ReactNode }) {
  return (
    <CardTitle className="flex items-center gap-2">
      <Icon className="size-5 text-primary" aria-hidden="true" />
      {children}
    </CardTitle>
  )
}
