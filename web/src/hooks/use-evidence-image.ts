import { useQuery } from '@tanstack/react-query'
import { evidenceQuery } from '@/api/evidence'
import { useObjectUrl } from './use-object-url'

/** A screenshot of issue 22's evidence, ready for <img src>: `src` is an object URL (revoked when the component goes
 *  away), null while loading or when it failed (`isError`, `retry`). */
export function useEvidenceImage(url: string) {
  const image = useQuery(evidenceQuery(url))
  const src = useObjectUrl(image.data)
  return { src, isError: image.isError, retry: () => void image.refetch() }
}
