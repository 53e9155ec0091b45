import * as React from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useLocation, useNavigate, useParams } from 'react-router'
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { toast } from 'sonner'
import { z } from '@/lib/zod'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { BackLink } from '@/components/common'
import { CommentPreview } from '@/components/comment-preview'
import { FormAlert } from '@/components/form-alert'
import { MoneyField } from '@/components/money-field'
import { SlotFilterFields } from '@/components/slot-filter-fields'
import { SubmitButton } from '@/components/submit-button'
import { TextareaField, TextField } from '@/components/text-field'
import { TitledCard } from '@/components/titled-card'
import { ApiError, serverMessage } from '@/api/errors'
import { buyerBidsQuery } from '@/api/queries'
import type { Campaign } from '@/api/types'
import { KEYS } from '@/api/keys'
import { useAuth } from '@/auth/session'
import { rules } from '@/config'
import { useDebounced } from '@/hooks/use-debounced'
import { useOnce } from '@/hooks/use-once'
import { askSentence } from '@/lib/ask'
import {
  BUDGET_MAX_CENTS,
  CAMPAIGN_NAME_MAX,
  campaignBody,
  campaignEdit,
  campaignFilters,
  campaignProblems,
  commentsUsedBefore,
  formFilters,
  isoToLocal,
  readDraft,
  type CampaignFormValues,
} from '@/lib/campaigns'
import { DEFAULT_FILTERS, totalText, type Filters } from '@/lib/filters'
import { brandLabel, maxNewCommentLength } from '@/lib/disclosure'
import { showServerErrors } from '@/lib/server-errors'
import { campaignQuery, reachQuery } from './api/queries'
import { useCreateCampaign, useEditCampaign } from './api/mutations'
import { CampaignWait } from './components/CampaignBits'

export const CREATE_FAILED = 'The campaign could not be created.'
export const EDIT_FAILED = 'The campaign could not be saved.'

/** The form's schema: its fields as typed, and every rule the form can see (campaignProblems) on its field. */
function campaignSchema(options: () => Parameters<typeof campaignProblems>[1]) {
  return z
    .object({
      name: z.string(),
      audience: z.enum(['filters', 'question']),
      filters: z.custom<Filters>(),
      search: z.string(),
      ask: z.string(),
      budget: z.string(),
      maxPerSlot: z.string(),
      commentText: z.string(),
      startsAt: z.string(),
      endsAt: z.string(),
    })
    .superRefine((values, ctx) => {
      for (const p of campaignProblems(values, options())) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message })
    })
}

/** A server refusal that names no field: a budget below what is committed speaks of the budget, so it is said there.
 *  The server names a filter as `filters.<name>`; the form holds them apart, so those are said above the buttons. */
function showRefusal(form: UseFormReturn<CampaignFormValues>, err: unknown): string | null {
  if (showServerErrors(form, err)) return null
  if (err instanceof ApiError && err.fieldErrors.length) return err.fieldErrors.map((e) => e.message).join(' ')
  if (err instanceof ApiError && err.detail && /budget|committed/i.test(`${err.code ?? ''} ${err.detail}`)) {
    form.setError('budget', { type: 'server', message: err.detail }, { shouldFocus: true })
    return null
  }
  return err instanceof ApiError && err.detail ? err.detail : null
}

/** /campaigns/new: a new campaign, its audience taken from "Save this search as a campaign" when it came from there. */
export function NewCampaignPage() {
  const location = useLocation()
  const [draft] = React.useState(() => readDraft(location.state))
  const defaults: CampaignFormValues = {
    name: '',
    audience: draft?.ask ? 'question' : 'filters',
    filters: draft?.filters ? formFilters(draft.filters) : DEFAULT_FILTERS,
    search: draft?.filters?.search ?? '',
    ask: draft?.ask ?? '',
    budget: '',
    maxPerSlot: '',
    commentText: '',
    startsAt: '',
    endsAt: '',
  }
  return <CampaignForm defaults={defaults} />
}

/** /campaigns/:id/edit: the campaign as it was read; only what changed is sent. */
export function EditCampaignPage() {
  const { campaignId = '' } = useParams()
  const campaign = useQuery(campaignQuery(campaignId))
  if (!campaign.data) {
    return <CampaignWait query={campaign} />
  }
  const c = campaign.data
  const defaults: CampaignFormValues = {
    name: c.name,
    audience: c.ask ? 'question' : 'filters',
    filters: formFilters(c.filters),
    search: c.filters.search ?? '',
    ask: c.ask ?? '',
    budget: c.budget.toFixed(2),
    maxPerSlot: c.maxPerSlot.toFixed(2),
    commentText: c.commentText,
    startsAt: isoToLocal(c.startsAt),
    endsAt: isoToLocal(c.endsAt),
  }
  return <CampaignForm key={c.id} defaults={defaults} editing={c} />
}

function CampaignForm({ defaults, editing }: { defaults: CampaignFormValues; editing?: Campaign }) {
  const navigate = useNavigate()
  const options = () => ({ editing: Boolean(editing), keptEnd: editing ? defaults.endsAt : undefined })
  const form = useForm<CampaignFormValues>({ resolver: zodResolver(campaignSchema(options)), defaultValues: defaults })
  const [refusal, setRefusal] = React.useState<string | null>(null)
  const { user } = useAuth()
  const brand = brandLabel(user?.instagramHandle, user?.businessName, user?.name)
  const [audience, filters, search, ask, commentText] = useWatch({ control: form.control, name: ['audience', 'filters', 'search', 'ask', 'commentText'] })

  const queryClient = useQueryClient()
  const failed = (title: string) => (err: unknown) => {
    // another tab or person changed it meanwhile: what it is now is read again, and the brand looks before saving
    if (editing && err instanceof ApiError && err.code === 'campaign_changed') void queryClient.invalidateQueries({ queryKey: KEYS.buyerCampaign(editing.id) })
    setRefusal(showRefusal(form, err))
    toast.error(title, { description: serverMessage(err, 'Please check the form and try again.') })
  }
  const create = useCreateCampaign({
    onSuccess: (c) => {
      toast.success('Campaign created', { description: 'Fund its budget to start bidding.' })
      void navigate(`/campaigns/${c.id}`)
    },
    onError: failed(CREATE_FAILED),
  })
  const edit = useEditCampaign(editing?.id ?? '', {
    onSuccess: (c) => {
      toast.success('Campaign saved')
      void navigate(`/campaigns/${c.id}`)
    },
    onError: failed(EDIT_FAILED),
  })

  // a double click sends one campaign, even before the re-render that disables the button
  const once = useOnce()
  function onSubmit(values: CampaignFormValues) {
    setRefusal(null)
    if (!editing) {
      once((done) => create.mutate(campaignBody(values), { onSettled: done }))
      return
    }
    const change = campaignEdit(values, editing)
    if (Object.keys(change).length === 0) {
      toast.info('Nothing changed')
      void navigate(`/campaigns/${editing.id}`)
      return
    }
    once((done) => edit.mutate(change, { onSettled: done }))
  }

  const back = editing ? `/campaigns/${editing.id}` : '/campaigns'
  const pending = create.isPending || edit.isPending
  const setFilter = <K extends keyof Filters>(key: K, value: Filters[K]) => form.setValue('filters', { ...form.getValues('filters'), [key]: value })
  return (
    <div className="mx-auto w-full max-w-3xl space-y-4">
      <BackLink to={back}>{editing ? 'Back to the campaign' : 'Back to Campaigns'}</BackLink>
      <div>
        <h2 className="text-2xl font-bold">{editing ? `Edit ${editing.name}` : 'New campaign'}</h2>
        <p className="text-muted-foreground">
          {editing ? 'A lower budget is taken only down to what is already committed to bids.' : 'Pinbid bids for you on every open slot that fits, now and as new ones are listed, within the budget.'}
        </p>
      </div>
      <Form {...form}>
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4" aria-label={editing ? 'Edit campaign' : 'New campaign'}>
          <TitledCard title="Name" level={2}>
            <TextField control={form.control} name="name" id="campaign-name" label="Campaign name" maxLength={CAMPAIGN_NAME_MAX} placeholder="e.g. Fitness creators, December" />
          </TitledCard>

          <TitledCard title="Who to reach" level={2} description="The marketplace's filters, or a question as you would ask the AI search." contentClassName="grid gap-4">
            {editing ? (
              <>
                {editing.ask && (
                  <p className="text-sm">
                    Made from the question <span className="font-medium [overflow-wrap:anywhere]">“{editing.ask}”</span>; the filters read from it are below, and can be changed.
                  </p>
                )}
                <AudienceFilters form={form} filters={filters} onChange={setFilter} />
              </>
            ) : (
              <>
                <fieldset className="flex flex-wrap gap-4">
                  <legend className="sr-only">Describe the audience by</legend>
                  {(['filters', 'question'] as const).map((value) => (
                    <label key={value} className="flex cursor-pointer items-center gap-2 text-sm">
                      <input type="radio" name="campaign-audience" value={value} checked={audience === value} onChange={() => form.setValue('audience', value)} className="accent-[var(--primary)]" />
                      {value === 'filters' ? 'Filters' : 'A question'}
                    </label>
                  ))}
                </fieldset>
                {audience === 'filters' ? (
                  <AudienceFilters form={form} filters={filters} onChange={setFilter} />
                ) : (
                  <TextField control={form.control} name="ask" id="campaign-ask" label="Your question" maxLength={rules().askMaxLength} placeholder="e.g. fitness creators under $30 for home workouts" />
                )}
              </>
            )}
            <Reach audience={editing ? 'filters' : audience} filters={filters} search={search} ask={ask} />
          </TitledCard>

          <TitledCard title="Budget" level={2} contentClassName="grid items-start gap-4 sm:grid-cols-2">
            <MoneyField control={form.control} name="budget" id="campaign-budget" label="Total budget (USD)" maxCents={BUDGET_MAX_CENTS} />
            <MoneyField control={form.control} name="maxPerSlot" id="campaign-max-per-slot" label="Most per comment (USD)" maxCents={BUDGET_MAX_CENTS} />
            <p className="text-xs text-muted-foreground sm:col-span-2">
              Each bid is an automatic bid up to the most per comment. What every open bid could cost at its maximum is set aside from the budget, so the budget is never exceeded.
            </p>
          </TitledCard>

          <TitledCard title="The comment" level={2}>
            <TextareaField
              control={form.control}
              name="commentText"
              id="campaign-comment"
              label="Comment to pin"
              maxLength={maxNewCommentLength()}
              placeholder="What should the pinned comment say?"
              note={<CommentPreview id="campaign-comment-preview" text={commentText} brand={brand} />}
            />
            <CommentsUsedBefore onPick={(text) => form.setValue('commentText', text, { shouldDirty: true, shouldValidate: true })} />
          </TitledCard>

          <TitledCard title="Dates" level={2} contentClassName="grid items-start gap-4 sm:grid-cols-2">
            <TextField control={form.control} name="startsAt" id="campaign-starts" type="datetime-local" label="Starts (optional)" hint={editing ? 'The start cannot be changed.' : 'Leave empty to start as soon as it is funded.'} disabled={Boolean(editing)} />
            <TextField control={form.control} name="endsAt" id="campaign-ends" type="datetime-local" label="Ends" />
          </TitledCard>

          {refusal && <FormAlert>{refusal}</FormAlert>}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button asChild variant="outline">
              <Link to={back}>Cancel</Link>
            </Button>
            <SubmitButton pending={pending} pendingLabel="Saving...">
              {editing ? 'Save changes' : 'Create campaign'}
            </SubmitButton>
          </div>
        </form>
      </Form>
    </div>
  )
}

/** The marketplace's filters and its search words, as a campaign's audience. */
function AudienceFilters({ form, filters, onChange }: { form: UseFormReturn<CampaignFormValues>; filters: Filters; onChange: <K extends keyof Filters>(key: K, value: Filters[K]) => void }) {
  return (
    <>
      <TextField control={form.control} name="search" id="campaign-search" label="Words in the slot (optional)" hint="As in the marketplace's search: the title, description or creator." maxLength={200} />
      <SlotFilterFields filters={filters} onChange={onChange} timeLeft={false} idPrefix="campaign-" />
    </>
  )
}

/** How many open slots the audience reaches now: the campaign bids on these, and on new ones as they are listed. */
function Reach({ audience, filters, search, ask }: { audience: 'filters' | 'question'; filters: Filters; search: string; ask: string }) {
  const question = useDebounced(ask.trim())
  const f = useDebounced(filters, 250)
  const words = useDebounced(search)
  const query = audience === 'question' ? (question ? { ask: question } : null) : slotFilters(campaignFilters(f, words))
  const reach = useQuery({ ...reachQuery(query ?? {}), enabled: query !== null, retry: false })
  let text = ''
  if (query && reach.data) {
    const said = reach.data.understood ? `${askSentence(reach.data.understood)} ` : ''
    text =
      reach.data.total === 0
        ? `${said}No open slot matches now: the campaign will bid when one that fits is listed.`
        : `${said}${totalText(reach.data)} open ${reach.data.total === 1 && reach.data.totalIsExact ? 'slot matches' : 'slots match'} now.`
  } else if (query && reach.isError) text = serverMessage(reach.error, 'How many slots match could not be read just now.')
  return (
    <p aria-live="polite" className="min-h-5 text-sm text-muted-foreground" data-testid="campaign-reach">
      {text}
    </p>
  )
}

/** The listing's own query for an audience: its search words go by the listing's name for them. */
function slotFilters({ search, ...rest }: ReturnType<typeof campaignFilters>) {
  return search ? { ...rest, q: search } : rest
}

/** A comment an earlier bid carried, pinned again: one press fills the comment (nothing shows before the first bid). */
function CommentsUsedBefore({ onPick }: { onPick: (text: string) => void }) {
  const bids = useQuery(buyerBidsQuery())
  const texts = commentsUsedBefore(bids.data ?? [])
  if (texts.length === 0) return null
  return (
    <div role="group" aria-labelledby="campaign-comments-before" className="mt-4 space-y-2">
      <p id="campaign-comments-before" className="text-sm font-medium">Or a comment you used before</p>
      <ul className="space-y-2">
        {texts.map((text) => (
          <li key={text}>
            <Button type="button" variant="outline" size="sm" className="h-auto w-full justify-start whitespace-normal py-2 text-left font-normal [overflow-wrap:anywhere]" onClick={() => onPick(text)}>
              {text}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  )
}
