import type * as React from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'

/** A card under a heading (h3, or h2 where no heading stands between it and the page's h1), with a line on what it
 *  holds when there is one. */
export function TitledCard({
  title,
  level,
  titleClassName,
  description,
  contentClassName,
  children,
}: {
  title: React.ReactNode
  level?: 2 | 3
  titleClassName?: string
  description?: React.ReactNode
  contentClassName?: string
  children: React.ReactNode
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle level={level} className={titleClassName}>
          {title}
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  )
}
