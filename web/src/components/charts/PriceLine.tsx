/* A slot's price over time (Recharts): loaded lazily when the bid history opens. */
import { CartesianGrid, Line, LineChart, XAxis, YAxis } from 'recharts'
import { ChartContainer, ChartTooltip, ChartTooltipContent, type ChartConfig } from '@/components/ui/chart'
import type { PricePoint } from '@/lib/charts'
import { formatMoney } from '@/lib/money'
import { fmtDateTime } from '@/components/common'

const CONFIG: ChartConfig = { price: { label: 'Price', color: 'var(--primary)' } }

export default function PriceLine({ points, label }: { points: PricePoint[]; label: string }) {
  return (
    <ChartContainer config={CONFIG} className="aspect-auto h-40 w-full">
      <LineChart data={points} margin={{ left: 4, right: 12, top: 8 }} accessibilityLayer role="img" aria-label={label}>
        <CartesianGrid vertical={false} />
        <XAxis dataKey="at" type="number" scale="time" domain={['dataMin', 'dataMax']} tickLine={false} axisLine={false}
          tickFormatter={(at: number) => new Date(at).toLocaleDateString('en-US', { month: 'short', day: 'numeric' })} />
        <YAxis dataKey="price" tickLine={false} axisLine={false} width={72} domain={['dataMin', 'auto']} tickFormatter={(v: number) => formatMoney(v)} />
        <ChartTooltip content={<ChartTooltipContent formatValue={formatMoney} formatLabel={(at) => fmtDateTime(new Date(Number(at)).toISOString())} />} />
        <Line dataKey="price" type="stepAfter" stroke="var(--color-price)" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />
      </LineChart>
    </ChartContainer>
  )
}
