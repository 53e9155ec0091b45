import { useMutation, useQueryClient, type QueryClient, type UseMutationOptions } from '@tanstack/react-query'

/** What a screen adds to an API hook's mutation: its own onSuccess, onError and the like (bulletproof-react's
 *  `mutationConfig`). The fetcher and the cache it changes stay with the hook. */
export type MutationConfig<TData, TVariables = void> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>

/** A mutation whose cache follow-up (`refresh`) runs on success before the screen's own onSuccess. */
export function useApiMutation<TData, TVariables = void>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  config: MutationConfig<TData, TVariables> = {},
  refresh?: (client: QueryClient, data: TData, variables: TVariables) => void,
) {
  const client = useQueryClient()
  const { onSuccess, ...rest } = config
  return useMutation<TData, Error, TVariables>({
    ...rest,
    mutationFn,
    onSuccess: (data, variables, result, context) => {
      refresh?.(client, data, variables)
      return onSuccess?.(data, variables, result, context)
    },
  })
}
