/* A campaign's spent and committed money over time (Recharts): loaded lazily with the campaign's page. */
import { Line, YAxis } from 'recharts'
import { ChartLegend, ChartLegendContent, ChartTooltip, ChartTooltipContent, type ChartConfig } from '@/components/ui/chart'
import { formatMoney } from '@/lib/money'
import { pointTime, TimeLineChart } from './TimeLineChart'

export type SpendPoint = { at: number; spent: number; committed: number }

const CONFIG: ChartConfig = {
  committed: { label: 'Committed', color: 'oklch(0.7 0.15 160)' },
  spent: { label: 'Spent', color: 'var(--primary)' },
}

export default function CampaignSpendLines({ points, label }: { points: SpendPoint[]; label: string }) {
  return (
    <TimeLineChart config={CONFIG} points={points} label={label} height="h-56">
      <YAxis tickLine={false} axisLine={false} width={64} tickFormatter={(v: number) => formatMoney(v)} />
      <ChartTooltip content={<ChartTooltipContent formatLabel={pointTime} formatValue={formatMoney} />} />
      <ChartLegend content={<ChartLegendContent />} />
      {Object.keys(CONFIG).map((key) => (
        <Line key={key} dataKey={key} type="stepAfter" stroke={`var(--color-${key})`} strokeWidth={2} dot={false} isAnimationActive={false} />
      ))}
    </TimeLineChart>
  )
}
