import * as React from 'react'

export function LegalLayout({ title, updated, intro, children }: { title: string; updated: string; intro: React.ReactNode; children: React.ReactNode }) {
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 md:py-16">
      <header className="mb-10 border-b pb-8">
        <h1 className="text-4xl font-bold tracking-tight">{title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">Last updated {updated}</p>
        <div className="mt-6 text-muted-foreground">{intro}</div>
      </header>
      <div className="space-y-10">{children}</div>
    </article>
  )
}

export function LegalSection({ title, children }: { title: string; children: React.ReactNode }) {
  const id = title.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  return (
    <section aria-labelledby={id} className="space-y-3 leading-relaxed text-foreground/85 [&_li]:ml-5 [&_li]:list-disc [&_li+li]:mt-1.5 [&_strong]:text-foreground">
      <h2 id={id} className="text-xl font-semibold text-foreground">
        {title}
      </h2>
      {children}
    </section>
  )
}
