import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion'
import { FAQ_GROUPS } from './faq'

/** One accordion for the whole page: only one item is open at a time, and clicking the open item closes it. */
export function FaqSection() {
  return (
    <Accordion type="single" collapsible className="grid items-start gap-6 lg:grid-cols-3 lg:gap-8">
      {FAQ_GROUPS.map((group) => (
        <section key={group.title} aria-labelledby={`faq-${group.title}`} className="rounded-2xl border bg-card p-5 shadow-xs sm:p-6">
          <h3 id={`faq-${group.title}`} className="mb-1 text-sm font-semibold tracking-wide text-primary uppercase">
            {group.title}
          </h3>
          {group.items.map((item) => (
            <AccordionItem key={item.id} value={item.id}>
              <AccordionTrigger>{item.question}</AccordionTrigger>
              <AccordionContent>{item.answer}</AccordionContent>
            </AccordionItem>
          ))}
        </section>
      ))}
    </Accordion>
  )
}
