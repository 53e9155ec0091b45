/* Bars per month (Recharts): loaded lazily by the pages that show it. */
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from 'recharts'
import { ChartContainer, ChartLegend, ChartLegendContent, ChartTooltip, ChartTooltipContent, type ChartConfig } from '@/components/ui/chart'
import { monthLabel } from '@/lib/charts'
import { formatMoney } from '@/lib/money'

export type MonthRow = { month: string } & Record<string, number | string>

export default function MonthlyBars({ rows, config, label }: { rows: MonthRow[]; config: ChartConfig; label: string }) {
  const keys = Object.keys(config)
  return (
    <ChartContainer config={config} className="aspect-auto h-56 w-full">
      <BarChart data={rows} margin={{ left: 4, right: 4, top: 8 }} accessibilityLayer role="img" aria-label={label}>
        <CartesianGrid vertical={false} />
        <XAxis dataKey="month" tickLine={false} axisLine={false} tickFormatter={(m: string) => monthLabel(m, true)} />
        <YAxis tickLine={false} axisLine={false} width={72} tickFormatter={(v: number) => formatMoney(v)} />
        <ChartTooltip cursor content={<ChartTooltipContent formatValue={formatMoney} formatLabel={(m) => monthLabel(m)} />} />
        {keys.length > 1 && <ChartLegend content={<ChartLegendContent />} />}
        {keys.map((key) => (
          <Bar key={key} dataKey={key} fill={`var(--color-${key})`} radius={4} />
        ))}
      </BarChart>
    </ChartContainer>
  )
}
