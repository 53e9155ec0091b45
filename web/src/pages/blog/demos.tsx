import * as React from 'react'
import { Pause, Play } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'

export const FORMULA_INTERVAL_MS = 3000
export const STEPS_INTERVAL_MS = 2500
export const STEPS_VISIBILITY_THRESHOLD = 0.5

export const FORMULA_STATES = [
  { letter: null, name: 'Before', text: 'Check out our store!!! Link in bio!!!', note: 'Generic, off-topic and undisclosed: readers scroll past it.' },
  { letter: 'B', name: 'Brand', text: 'Trailpack here! Check out our store.', note: 'Say who is speaking, in the first words.' },
  { letter: 'R', name: 'Relevance', text: 'Trailpack here! That ridge at sunrise is exactly what our 28L daypack was made for.', note: 'Tie the comment to this exact post.' },
  { letter: 'I', name: 'Incentive', text: 'Trailpack here! That ridge at sunrise is exactly what our 28L daypack was made for. 15% off with MAYA15.', note: 'Give viewers a reason to act now.' },
  { letter: 'D', name: 'Disclosure', text: 'Trailpack here! That ridge at sunrise is exactly what our 28L daypack was made for. 15% off with MAYA15. #ad', note: 'Disclose the paid placement with #ad.' },
  { letter: 'G', name: 'Genuine', text: 'Trailpack here! Maya carried our 28L daypack up that ridge at sunrise, and it still fit her camera kit. 15% off with MAYA15. #ad', note: 'Sound like a person, not a banner.' },
  { letter: 'E', name: 'Engage', text: 'Trailpack here! Maya carried our 28L daypack up that ridge at sunrise, and it still fit her camera kit. Where would you take it? 15% off with MAYA15. #ad', note: 'End with a question so replies keep the comment on top.' },
] as const

/** Advances every 3000 ms through a before state and the six steps B, R, I, D, G, E. */
export function FormulaDemo() {
  const [index, setIndex] = React.useState(0)
  const [playing, setPlaying] = React.useState(true)

  React.useEffect(() => {
    if (!playing) return
    const t = window.setInterval(() => setIndex((i) => (i + 1) % FORMULA_STATES.length), FORMULA_INTERVAL_MS)
    return () => window.clearInterval(t)
  }, [playing])

  const state = FORMULA_STATES[index]
  return (
    <figure className="not-prose my-8 rounded-2xl border bg-card p-5 shadow-sm sm:p-6" aria-label="The BRIDGE formula, step by step" data-testid="formula-demo">
      <div className="mb-4 flex items-center justify-between gap-3">
        <div className="flex gap-1.5" role="group" aria-label="Formula steps">
          {FORMULA_STATES.slice(1).map((s, i) => (
            <button
              key={s.letter}
              type="button"
              onClick={() => {
                setIndex(i + 1)
                setPlaying(false)
              }}
              aria-pressed={index === i + 1}
              aria-label={`${s.letter}: ${s.name}`}
              className={cn(
                'flex size-9 cursor-pointer items-center justify-center rounded-lg border text-sm font-bold transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                index > i ? 'border-primary bg-primary text-primary-foreground' : 'bg-muted text-muted-foreground',
              )}
            >
              {s.letter}
            </button>
          ))}
        </div>
        <Button type="button" size="icon-sm" variant="ghost" onClick={() => setPlaying((p) => !p)} aria-label={playing ? 'Pause demo' : 'Play demo'}>
          {playing ? <Pause /> : <Play />}
        </Button>
      </div>
      <div aria-live="polite">
        <p className="text-xs font-semibold tracking-wide text-primary uppercase" data-testid="formula-step">
          {state.letter ? `${state.letter} — ${state.name}` : state.name}
        </p>
        <div key={index} className="mt-2 rounded-xl bg-muted/60 p-4 animate-pop">
          <p className="text-[0.9375rem]">
            <span className="font-semibold">trailpack</span> {state.text}
          </p>
        </div>
        <figcaption className="mt-3 text-sm text-muted-foreground">{state.note}</figcaption>
      </div>
    </figure>
  )
}

export const BUYER_STEPS = [
  { title: 'Browse pin slots', text: 'Filter by category, views and engagement to find posts your audience watches.' },
  { title: 'Place your bid', text: 'Set your bid and, optionally, an automatic maximum. You pay the second-highest bid.' },
  { title: 'Choose your comment', text: 'Pick one of your comments on the post or write a new one, with #ad.' },
  { title: 'Pay after approval', text: 'Nothing is charged until the creator approves your winning comment.' },
  { title: 'Track your pin', text: 'Watch likes and replies on your pinned comment while it stays on top.' },
] as const

/** Advances every 2500 ms through the five buyer steps, only while at least half of it is visible. */
export function StepsDemo() {
  const ref = React.useRef<HTMLDivElement>(null)
  const [visible, setVisible] = React.useState(false)
  const [active, setActive] = React.useState(0)

  React.useEffect(() => {
    const el = ref.current
    if (!el || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(([entry]) => setVisible(entry.isIntersecting && entry.intersectionRatio >= STEPS_VISIBILITY_THRESHOLD), {
      threshold: STEPS_VISIBILITY_THRESHOLD,
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  React.useEffect(() => {
    if (!visible) return
    const t = window.setInterval(() => setActive((i) => (i + 1) % BUYER_STEPS.length), STEPS_INTERVAL_MS)
    return () => window.clearInterval(t)
  }, [visible])

  return (
    <div ref={ref} className="not-prose my-8 rounded-2xl border bg-card p-5 shadow-sm sm:p-6" data-testid="steps-demo">
      <p className="mb-4 text-sm font-semibold">How brands buy a pinned comment</p>
      <ol className="space-y-2">
        {BUYER_STEPS.map((s, i) => (
          <li key={s.title}>
            <button
              type="button"
              onClick={() => setActive(i)}
              aria-current={active === i ? 'step' : undefined}
              className={cn(
                'flex w-full cursor-pointer items-start gap-3 rounded-xl border p-3 text-left transition-all outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                active === i ? 'border-primary/40 bg-primary/5 shadow-xs' : 'border-transparent opacity-70 hover:opacity-100',
              )}
            >
              <span
                className={cn(
                  'flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-bold',
                  active === i ? 'bg-primary text-primary-foreground' : 'bg-muted text-muted-foreground',
                )}
              >
                {i + 1}
              </span>
              <span>
                <span className="block text-sm font-medium">{s.title}</span>
                {active === i && <span className="mt-0.5 block text-sm text-muted-foreground">{s.text}</span>}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  )
}
