/* The frame the time charts share (Recharts): a line chart over time, its grid and a date axis; each chart adds its
 * value axis, tooltip and lines as children. Imported only by the lazily loaded charts. */
import * as React from 'react'
import { CartesianGrid, LineChart, XAxis } from 'recharts'
import { ChartContainer, type ChartConfig } from '@/components/ui/chart'
import { fmtDateTime } from '@/components/common'

/** The tooltip's heading: the point's time, as the rest of the app writes a date and time. */
export const pointTime = (at: string) => fmtDateTime(new Date(Number(at)).toISOString())

export function TimeLineChart({ config, points, label, height, children }: { config: ChartConfig; points: { at: number }[]; label: string; height: 'h-40' | 'h-56'; children: React.ReactNode }) {
  return (
    <ChartContainer config={config} className={`aspect-auto ${height} w-full`}>
      <LineChart data={points} margin={{ left: 4, right: 12, top: 8 }} accessibilityLayer role="img" aria-label={label}>
        <CartesianGrid vertical={false} />
        <XAxis dataKey="at" type="number" scale="time" domain={['dataMin', 'dataMax']} tickLine={false} axisLine={false}
          tickFormatter={(at: number) => new Date(at).toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} />
        {children}
      </LineChart>
    </ChartContainer>
  )
}
