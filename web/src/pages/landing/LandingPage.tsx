import { Link } from 'react-router'
import { creatorSharePercent, pinDurationSpan } from '@/lib/bids'
import { ArrowRight, BadgeCheck, Camera, CircleCheck, Gavel, HandCoins, ListPlus, PenLine, Pin, Search, ShieldCheck, Sparkles, Target } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Badge } from '@/components/ui/badge'
import { AuctionDemo } from './AuctionDemo'
import { FaqSection } from './FaqSection'

const FEATURES = [
  {
    icon: Gavel,
    title: 'Smart Auctions',
    text: 'Second-price auctions with auto-bidding: brands set a maximum, the winner pays just the second-highest bid, and creators get a fair market price.',
  },
  {
    icon: ShieldCheck,
    title: 'Quality Control',
    text: 'Every winning comment is reviewed by the creator before it goes live. Nothing is pinned without approval, and unapproved bids are refunded in full.',
  },
  {
    icon: Pin,
    title: 'Premium Placement',
    get text() {
      const { shortest, longest } = pinDurationSpan()
      return `A pinned comment sits at the top of the conversation, under a post people are already watching, for ${shortest} to ${longest} days.`
    },
  },
]

const CREATOR_STEPS = [
  { icon: ListPlus, title: 'List Your Content', text: 'Connect your Instagram Business or Creator account and open a pinned-comment slot on any post.' },
  { icon: CircleCheck, title: 'Review & Approve', text: 'When the auction closes, read the winning comment and approve it, or reject it at no cost to you.' },
  {
    icon: HandCoins,
    title: 'Earn Automatically',
    get text() {
      return `Pin the comment and earn ${creatorSharePercent()}% of the final price, paid out weekly or monthly.`
    },
  },
]

const BRAND_STEPS = [
  { icon: Search, title: 'Discover & Bid', text: 'Browse slots by category, views and engagement. Set a maximum and let auto-bidding do the rest.' },
  { icon: PenLine, title: 'Craft Your Message', text: 'Pick one of your existing comments on the post or write a new one, disclosed with #ad.' },
  { icon: Target, title: 'Get Maximum Impact', text: 'Your message is pinned where every viewer looks first, and you can track it live.' },
]

/** Figures the product's own rules back (no counts of people or money that nothing measures): the creator's share
 *  (the server's fee), the price rule and the placement's length. */
function heroFacts() {
  return [
    { value: `${creatorSharePercent()}%`, label: 'of the price goes to the creator' },
    { value: '2nd price', label: 'the winner pays the second-highest bid' },
    { value: `${pinDurationSpan().shortest}–${pinDurationSpan().longest} days`, label: 'pinned at the top of the post' },
  ]
}

export default function LandingPage() {
  return (
    <>
      {/* Hero */}
      <section className="relative overflow-hidden">
        <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_70%_-10%,oklch(0.9_0.08_290/.7),transparent),radial-gradient(40rem_24rem_at_0%_10%,oklch(0.93_0.06_350/.6),transparent)]" />
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-14 pb-16 sm:px-6 md:pt-20 lg:grid-cols-[1.15fr_0.85fr] lg:pb-24">
          <div>
            <Badge variant="soft" className="mb-5 gap-1.5 px-3 py-1 text-[0.8125rem]">
              <Sparkles /> The marketplace for pinned comments
            </Badge>
            <h1 className="text-4xl leading-[1.08] font-bold tracking-tight sm:text-5xl lg:text-6xl">
              Your top comment is prime real estate.{' '}
              <span className="bg-gradient-to-r from-primary to-brand-2 bg-clip-text text-transparent">Auction it.</span>
            </h1>
            <p className="mt-5 max-w-xl text-lg text-muted-foreground">
              Creators sell the pinned-comment spot on their Instagram posts. Brands bid for it in fair, second-price auctions. You approve every word before
              it goes live.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to="/signup/influencer">
                  Start Earning <ArrowRight />
                </Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to="/signup/buyer">Browse Opportunities</Link>
              </Button>
            </div>
            <dl className="mt-10 grid max-w-lg grid-cols-3 gap-4">
              {heroFacts().map((s) => (
                // the term once (it was read twice), shown under its figure
                <div key={s.label} className="flex flex-col-reverse">
                  <dt className="text-xs text-muted-foreground sm:text-sm">{s.label}</dt>
                  <dd className="text-2xl font-bold tracking-tight sm:text-3xl">{s.value}</dd>
                </div>
              ))}
            </dl>
          </div>
          <HeroCard />
        </div>
      </section>

      {/* Interactive demo */}
      <section id="demo" aria-labelledby="demo-title" className="border-y bg-muted/40">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 md:py-20">
          <SectionHeading
            id="demo-title"
            eyebrow="Try it"
            title="Bid against the room"
            text="A live simulation of a Pinbid auction. Two brands are already bidding with hidden maximums. Set yours and see what the winner actually pays, and what the creator takes home."
          />
          <AuctionDemo />
        </div>
      </section>

      {/* Features */}
      <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 md:py-24">
        <SectionHeading id="features-title" eyebrow="Why Pinbid" title="Built for creators, trusted by brands" />
        <div className="grid gap-5 md:grid-cols-3">
          {FEATURES.map((f) => (
            <article key={f.title} className="rounded-2xl border bg-card p-6 shadow-xs transition-shadow hover:shadow-md">
              <div className="mb-4 flex size-11 items-center justify-center rounded-xl bg-primary/10 text-primary">
                <f.icon className="size-5" />
              </div>
              <h3 className="text-lg font-semibold">{f.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{f.text}</p>
            </article>
          ))}
        </div>
      </section>

      {/* How it works */}
      <section aria-labelledby="how-title" className="bg-gradient-to-b from-background to-muted/50">
        <div className="mx-auto max-w-6xl px-4 pb-16 sm:px-6 md:pb-24">
          <SectionHeading id="how-title" eyebrow="How it works" title="Three steps on each side" />
          <div className="grid gap-6 lg:grid-cols-2">
            <StepList title="For Creators" steps={CREATOR_STEPS} cta={{ to: '/signup/influencer', label: 'Start Earning' }} />
            <StepList title="For Brands" steps={BRAND_STEPS} cta={{ to: '/signup/buyer', label: 'Browse Opportunities' }} />
          </div>
        </div>
      </section>

      {/* FAQ */}
      <section id="faq" aria-labelledby="faq-title" className="mx-auto w-full max-w-6xl scroll-mt-20 px-4 py-16 sm:px-6 md:py-24">
        <SectionHeading id="faq-title" eyebrow="FAQ" title="Frequently asked questions" />
        <FaqSection />
      </section>

      {/* Closing call to action */}
      <section aria-labelledby="cta-title" className="px-4 pb-16 sm:px-6 md:pb-24">
        <div className="relative mx-auto max-w-6xl overflow-hidden rounded-3xl bg-gradient-to-br from-primary to-[oklch(0.5_0.22_320)] px-6 py-14 text-center text-primary-foreground shadow-lg sm:px-12">
          <h2 id="cta-title" className="text-3xl font-bold sm:text-4xl">
            Ready to put your best comment first?
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-primary-foreground/85">
            Join the creators turning their comment sections into income, and the brands reaching audiences where they already pay attention.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild size="lg" variant="white">
              <Link to="/signup/influencer">Start as Creator</Link>
            </Button>
            <Button asChild size="lg" variant="outline" className="border-white/40 bg-transparent text-white hover:bg-white/10 hover:text-white">
              <Link to="/signup/buyer">Start as Brand</Link>
            </Button>
          </div>
        </div>
      </section>
    </>
  )
}

function SectionHeading({ id, eyebrow, title, text }: { id: string; eyebrow: string; title: string; text?: string }) {
  return (
    <div className="mx-auto mb-10 max-w-2xl text-center">
      <p className="mb-2 text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
      <h2 id={id} className="text-3xl font-bold sm:text-4xl">
        {title}
      </h2>
      {text && <p className="mt-3 text-muted-foreground">{text}</p>}
    </div>
  )
}

function StepList({
  title,
  steps,
  cta,
}: {
  title: string
  steps: { icon: typeof Gavel; title: string; text: string }[]
  cta: { to: string; label: string }
}) {
  return (
    <div className="rounded-2xl border bg-card p-6 shadow-xs sm:p-8">
      <h3 className="text-xl font-semibold">{title}</h3>
      <ol className="mt-6 space-y-6">
        {steps.map((s, i) => (
          <li key={s.title} className="flex gap-4">
            <div className="relative flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground">
              {i + 1}
            </div>
            <div>
              <p className="flex items-center gap-2 font-medium">
                <s.icon className="size-4 text-primary" aria-hidden="true" /> {s.title}
              </p>
              <p className="mt-1 text-sm text-muted-foreground">{s.text}</p>
            </div>
          </li>
        ))}
      </ol>
      <Button asChild variant="link" className="mt-4 px-0">
        <Link to={cta.to}>
          {cta.label} <ArrowRight />
        </Link>
      </Button>
    </div>
  )
}

function HeroCard() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-sm">
      <div className="absolute -inset-4 -z-10 rotate-3 rounded-3xl bg-gradient-to-br from-primary/25 to-brand-2/25 blur-xl" />
      <div className="overflow-hidden rounded-2xl border bg-card shadow-xl">
        <div className="flex items-center gap-3 px-4 py-3">
          <div className="flex size-9 items-center justify-center rounded-full bg-gradient-to-br from-sky-400 to-violet-500 text-white">
            <Camera className="size-4" />
          </div>
          <div>
            <p className="flex items-center gap-1 text-sm font-semibold">
              lena.travels <BadgeCheck className="size-4 text-primary" />
            </p>
            <p className="text-xs text-muted-foreground">Lisbon, Portugal</p>
          </div>
        </div>
        <div className="aspect-[4/3] sm:aspect-square bg-[linear-gradient(160deg,oklch(0.78_0.12_220),oklch(0.7_0.16_300)_55%,oklch(0.78_0.15_40))]" />
        <div className="space-y-3 p-4">
          <div className="rounded-xl border border-primary/30 bg-primary/5 p-3 text-sm">
            <p className="mb-1 flex items-center gap-1 text-xs font-medium text-primary">
              <Pin className="size-3.5" /> Pinned by lena.travels
            </p>
            <p>
              <span className="font-semibold">nomadpack</span> The bag in this shot fits every carry-on limit in Europe. 15% off with LENA15 #ad
            </p>
          </div>
          <div className="flex items-center justify-between rounded-xl bg-muted px-3 py-2 text-sm">
            <span className="text-muted-foreground">Won for</span>
            <span className="font-semibold">$184.00</span>
            <span className="text-success">Creator nets $165.60</span>
          </div>
        </div>
      </div>
    </div>
  )
}
