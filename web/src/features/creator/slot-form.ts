/** The pin slot form's rules, without React: its choices, what stops it from being sent, and its zod schema. */
import { rules } from '@/config'
import { z } from '@/lib/zod'
import { readMoney } from '@/lib/money'
import { hoursText } from '@/lib/spans'

/** The auction lengths and pin durations offered, as the server serves them (pinbid_kit/product_rules.py; the
 *  durations span the range marketplace takes). */
export const auctionEndChoices = () => rules().auctionLengthHours.choices.map((hours) => ({ value: String(hours), label: hoursText(hours) }))
export const durationChoices = () => rules().pinDurationDays.choices
/** The form's first choices. */
export const slotFormDefaults = () => ({ endIn: String(rules().auctionLengthHours.default), duration: String(rules().pinDurationDays.default) })

/** What stops the slot form from being sent, or null. Shown after the first attempt, and gone once fixed. */
export function slotFormProblem(fields: { title: string; category: string; minBid: string; buyNow: string }): string | null {
  if (!fields.title.trim() || !fields.category || !fields.minBid.trim()) return 'Give the slot a title, a category and a minimum bid.'
  const min = readMoney(fields.minBid)
  if (!min.ok) return `Minimum bid: ${min.message}`
  if (!fields.buyNow.trim()) return null
  const buy = readMoney(fields.buyNow)
  if (!buy.ok) return `Buy Now price: ${buy.message}`
  if (buy.cents < min.cents) return 'The Buy Now price must be at least the minimum bid.'
  return null
}

export interface SlotFormValues {
  title: string
  description: string
  category: string
  minBid: string
  buyNow: string
  endIn: string
  duration: string
}

export const slotFormSchema = z
  .object({ title: z.string(), description: z.string(), category: z.string(), minBid: z.string(), buyNow: z.string(), endIn: z.string(), duration: z.string() })
  .superRefine((values, ctx) => {
    const problem = slotFormProblem(values)
    // the form's one message (react-hook-form's root error), not a field's: it speaks of several fields
    if (problem) ctx.addIssue({ code: 'custom', path: ['root'], message: problem })
  })
