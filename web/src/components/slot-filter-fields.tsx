import { useQuery } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { NativeSelect } from '@/components/ui/native-select'
import { Slider } from '@/components/ui/slider'
import { Switch } from '@/components/ui/switch'
import { categoriesQuery } from '@/api/queries'
import { KEPT_OPTIONS, MIN_VIEWS_OPTIONS, PRICE_MAX, PRICE_MIN, PRICE_STEP, timeLeftOptions, type Filters } from '@/lib/filters'
import { capitalize, cn } from '@/lib/utils'

/** The marketplace's filters as controls: price range, minimum views, (time left), reliability, verified, category.
 *  The marketplace's panel and a campaign's audience use the same ones; `idPrefix` keeps two on one page apart. */
export function SlotFilterFields({ filters, onChange, timeLeft = true, idPrefix = '', className }: { filters: Filters; onChange: <K extends keyof Filters>(key: K, value: Filters[K]) => void; timeLeft?: boolean; idPrefix?: string; className?: string }) {
  const categories = useQuery(categoriesQuery())
  const id = (name: string) => `${idPrefix}${name}`
  return (
    <div className={cn('grid gap-5 md:grid-cols-2 lg:grid-cols-4', className)}>
      <div className="grid gap-3 lg:col-span-2">
        <div className="flex justify-between text-sm">
          <span id={id('price-label')} className="font-medium">
            Price range
          </span>
          <span className="text-muted-foreground tabular-nums">
            ${filters.price[0]} – ${filters.price[1]}
            {filters.price[1] === PRICE_MAX && '+'}
          </span>
        </div>
        <Slider
          aria-labelledby={id('price-label')}
          min={PRICE_MIN}
          max={PRICE_MAX}
          step={PRICE_STEP}
          minStepsBetweenThumbs={1}
          value={filters.price}
          onValueChange={(v) => onChange('price', [v[0] ?? PRICE_MIN, v[1] ?? PRICE_MAX])}
          thumbLabels={['Minimum price', 'Maximum price']}
        />
      </div>
      <FilterSelect id={id('min-views')} label="Min. Views" value={filters.minViews} options={MIN_VIEWS_OPTIONS} onChange={(v) => onChange('minViews', v)} />
      {timeLeft && <FilterSelect id={id('time-left')} label="Time Left" value={filters.timeLeft} options={timeLeftOptions()} onChange={(v) => onChange('timeLeft', v)} />}
      <FilterSelect id={id('min-kept')} label="Reliability" value={filters.minKept} options={KEPT_OPTIONS} onChange={(v) => onChange('minKept', v)} />
      <div className="flex items-center gap-3">
        <Switch id={id('verified-only')} checked={filters.verified} onCheckedChange={(v) => onChange('verified', v)} />
        <Label htmlFor={id('verified-only')}>Verified Only</Label>
      </div>
      <div className="grid gap-2 md:col-span-2 lg:col-span-3">
        <span id={id('category-label')} className="text-sm font-medium">
          Category
        </span>
        <div role="group" aria-labelledby={id('category-label')} className="flex flex-wrap gap-2">
          {['all', ...(categories.data ?? [])].map((c) => (
            <Button key={c} type="button" size="sm" variant={filters.category === c ? 'default' : 'outline'} aria-pressed={filters.category === c} onClick={() => onChange('category', c)}>
              {c === 'all' ? 'all' : capitalize(c)}
            </Button>
          ))}
        </div>
      </div>
    </div>
  )
}

/** One filter: a labelled choice among its options. */
function FilterSelect<V extends string>({ id, label, value, options, onChange }: { id: string; label: string; value: V; options: readonly { value: V; label: string }[]; onChange: (value: V) => void }) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} value={value} onChange={(e) => onChange(e.target.value as V)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  )
}
