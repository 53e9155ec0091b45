/* A placement's likes, replies and clicks over time (Recharts): loaded lazily with the placement page. */
import { CartesianGrid, Line, LineChart, XAxis, YAxis } from 'recharts'
import { ChartContainer, ChartLegend, ChartLegendContent, ChartTooltip, ChartTooltipContent, type ChartConfig } from '@/components/ui/chart'
import type { PlacementPoint } from '@/lib/charts'
import { fmtDateTime } from '@/components/common'

const CONFIG: ChartConfig = {
  likes: { label: 'Likes', color: 'var(--primary)' },
  replies: { label: 'Replies', color: 'oklch(0.7 0.15 160)' },
  clicks: { label: 'Clicks', color: 'oklch(0.65 0.18 40)' },
}

export default function PlacementLines({ points, label }: { points: PlacementPoint[]; label: string }) {
  return (
    <ChartContainer config={CONFIG} className="aspect-auto h-56 w-full">
      <LineChart data={points} margin={{ left: 4, right: 12, top: 8 }} accessibilityLayer role="img" aria-label={label}>
        <CartesianGrid vertical={false} />
        <XAxis dataKey="at" type="number" scale="time" domain={['dataMin', 'dataMax']} tickLine={false} axisLine={false}
          tickFormatter={(at: number) => new Date(at).toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} />
        <YAxis tickLine={false} axisLine={false} width={40} allowDecimals={false} />
        <ChartTooltip content={<ChartTooltipContent formatLabel={(at) => fmtDateTime(new Date(Number(at)).toISOString())} />} />
        <ChartLegend content={<ChartLegendContent />} />
        {Object.keys(CONFIG).map((key) => (
          <Line key={key} dataKey={key} type="stepAfter" stroke={`var(--color-${key})`} strokeWidth={2} dot={false} isAnimationActive={false} />
        ))}
      </LineChart>
    </ChartContainer>
  )
}
