/** The pin slot form's rules, without React: its choices, what stops it from being sent, and its zod schema. */
import { z } from '@/lib/zod'
import { readMoney } from '@/lib/money'

export const AUCTION_END_CHOICES = [
  { value: '24', label: '24 hours' },
  { value: '48', label: '48 hours' },
  { value: '72', label: '3 days' },
  { value: '168', label: '7 days' },
]
export const DURATION_CHOICES = [7, 14, 21, 30]

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
