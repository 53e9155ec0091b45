/* Chart primitives in the shape of shadcn/ui's chart component, on Recharts: a container that names each
   series (label and colour, exposed as --color-<key>), and a tooltip and legend that read those names.
   Import only from lazily loaded chart modules: Recharts is large and the landing page must not carry it. */
import * as React from 'react'
import * as Recharts from 'recharts'
import { cn } from '@/lib/utils'

export type ChartConfig = Record<string, { label: React.ReactNode; color: string }>

const ChartContext = React.createContext<ChartConfig | null>(null)

function useChartConfig(): ChartConfig {
  const config = React.useContext(ChartContext)
  if (!config) throw new Error('Chart parts must be used inside a <ChartContainer />')
  return config
}

export function ChartContainer({ config, className, children, ...props }: React.ComponentProps<'div'> & { config: ChartConfig; children: React.ReactElement }) {
  const colours = Object.fromEntries(Object.entries(config).map(([key, item]) => [`--color-${key}`, item.color])) as React.CSSProperties
  return (
    <ChartContext.Provider value={config}>
      <div
        data-slot="chart"
        className={cn(
          'flex aspect-video min-w-0 justify-center text-xs [&_.recharts-cartesian-axis-tick_text]:fill-muted-foreground [&_.recharts-cartesian-grid_line]:stroke-border/60 [&_.recharts-rectangle.recharts-tooltip-cursor]:fill-muted [&_.recharts-curve.recharts-tooltip-cursor]:stroke-border [&_.recharts-surface]:rounded-sm [&_.recharts-surface:focus-visible]:outline-2 [&_.recharts-surface:focus-visible]:outline-solid [&_.recharts-surface:focus-visible]:-outline-offset-2 [&_.recharts-surface:focus-visible]:outline-ring',
          className,
        )}
        style={{ ...colours, ...props.style }}
        {...props}
      >
        <Recharts.ResponsiveContainer initialDimension={{ width: 320, height: 200 }}>{children}</Recharts.ResponsiveContainer>
      </div>
    </ChartContext.Provider>
  )
}

export const ChartTooltip = Recharts.Tooltip
export const ChartLegend = Recharts.Legend

type TooltipItem = { dataKey?: unknown; name?: unknown; value?: unknown; color?: string }

export function ChartTooltipContent({ active, payload, label, formatValue = String, formatLabel = String }: {
  active?: boolean
  payload?: readonly TooltipItem[]
  label?: unknown
  formatValue?: (value: number) => string
  formatLabel?: (label: string) => string
}) {
  const config = useChartConfig()
  if (!active || !payload?.length) return null
  return (
    <div className="grid min-w-32 gap-1.5 rounded-lg border border-border/50 bg-background px-2.5 py-1.5 text-xs shadow-xl">
      <div className="font-medium">{formatLabel(String(label ?? ''))}</div>
      {payload.map((item) => {
        const key = String(item.dataKey ?? item.name ?? 'value')
        return (
          <div key={key} className="flex items-center gap-2">
            <span className="size-2.5 shrink-0 rounded-[2px]" style={{ backgroundColor: item.color }} />
            <span className="flex-1 text-muted-foreground">{config[key]?.label ?? key}</span>
            <span className="font-mono font-medium tabular-nums">{formatValue(Number(item.value ?? 0))}</span>
          </div>
        )
      })}
    </div>
  )
}

export function ChartLegendContent({ payload }: { payload?: readonly { dataKey?: unknown; value?: unknown; color?: string }[] }) {
  const config = useChartConfig()
  if (!payload?.length) return null
  return (
    <div className="flex items-center justify-center gap-4 pt-3">
      {payload.map((item) => {
        const key = String(item.dataKey ?? item.value)
        return (
          <div key={key} className="flex items-center gap-1.5">
            <span className="size-2 shrink-0 rounded-[2px]" style={{ backgroundColor: item.color }} />
            {config[key]?.label ?? key}
          </div>
        )
      })}
    </div>
  )
}
