/* A placement's likes, replies and clicks over time (Recharts): loaded lazily with the placement page. */
import { Line, YAxis } from 'recharts'
import { ChartLegend, ChartLegendContent, ChartTooltip, ChartTooltipContent, type ChartConfig } from '@/components/ui/chart'
import type { PlacementPoint } from '@/lib/charts'
import { pointTime, TimeLineChart } from './TimeLineChart'

const CONFIG: ChartConfig = {
  likes: { label: 'Likes', color: 'var(--primary)' },
  replies: { label: 'Replies', color: 'oklch(0.7 0.15 160)' },
  clicks: { label: 'Clicks', color: 'oklch(0.65 0.18 40)' },
}

export default function PlacementLines({ points, label }: { points: PlacementPoint[]; label: string }) {
  return (
    <TimeLineChart config={CONFIG} points={points} label={label} height="h-56">
      <YAxis tickLine={false} axisLine={false} width={40} allowDecimals={false} />
      <ChartTooltip content={<ChartTooltipContent formatLabel={pointTime} />} />
      <ChartLegend content={<ChartLegendContent />} />
      {Object.keys(CONFIG).map((key) => (
        <Line key={key} dataKey={key} type="stepAfter" stroke={`var(--color-${key})`} strokeWidth={2} dot={false} isAnimationActive={false} />
      ))}
    </TimeLineChart>
  )
}
