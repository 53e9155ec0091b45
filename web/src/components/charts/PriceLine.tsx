/* A slot's price over time (Recharts): loaded lazily when the bid history opens. */
import { Line, YAxis } from 'recharts'
import { ChartTooltip, ChartTooltipContent, type ChartConfig } from '@/components/ui/chart'
import type { PricePoint } from '@/lib/charts'
import { formatMoney } from '@/lib/money'
import { pointTime, TimeLineChart } from './TimeLineChart'

const CONFIG: ChartConfig = { price: { label: 'Price', color: 'var(--primary)' } }

export default function PriceLine({ points, label }: { points: PricePoint[]; label: string }) {
  return (
    <TimeLineChart config={CONFIG} points={points} label={label} height="h-40">
      <YAxis dataKey="price" tickLine={false} axisLine={false} width={72} domain={['dataMin', 'auto']} tickFormatter={(v: number) => formatMoney(v)} />
      <ChartTooltip content={<ChartTooltipContent formatValue={formatMoney} formatLabel={pointTime} />} />
      <Line dataKey="price" type="stepAfter" stroke="var(--color-price)" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />
    </TimeLineChart>
  )
}
