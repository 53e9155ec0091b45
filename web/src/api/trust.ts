/** Issue 22's placement trust API (social): the brand's acceptance and reports, the creator's screenshots. Both
 *  sides read it, so it lives here rather than in a feature. The screenshot uploads are in upload.ts (XHR, for
 *  their progress), the evidence images in evidence.ts. */
import { queryOptions } from '@tanstack/react-query'
import { api, type Schemas } from './client'
import { retryUnlessNotFound, unwrap } from './errors'
import { KEYS } from './keys'

export type PlacementTrust = Schemas['PlacementTrustOut']
export type Acceptance = Schemas['PlacementAcceptanceOut']
export type Evidence = Schemas['PlacementEvidenceOut']
export type EvidenceKind = Evidence['kind']
export type Recheck = Schemas['PlacementRecheckOut']
export type Dispute = Schemas['DisputeOut']
export type DisputeOutcome = NonNullable<Dispute['outcome']>
/** What the person asking may do now and by when (accept, report, answer), by the server's rules: the screens show
 *  what it allows rather than working the state out again. */
export type TrustActions = Schemas['PlacementActionsOut']

const forBid = (bidId: string) => ({ params: { path: { bid_id: bidId } } })

export const fetchTrust = async (bidId: string) => unwrap(await api().GET('/instagram/placements/{bid_id}/trust', forBid(bidId)))

/** 404 is an answer here (a placement that has not started, or is not this person's): it is not asked again. */
export const trustQuery = (bidId: string) =>
  queryOptions({
    queryKey: KEYS.placementTrust(bidId),
    queryFn: () => fetchTrust(bidId),
    retry: retryUnlessNotFound,
  })

export const acceptPlacement = async (bidId: string) => unwrap(await api().POST('/buyer/placements/{bid_id}/accept', forBid(bidId)))

export const reportPlacement = async (bidId: string, reason: string) =>
  unwrap(await api().POST('/buyer/placements/{bid_id}/report', { ...forBid(bidId), body: { reason } }))
