/**
 * A flow in two parts: what a configuration needs when it is resolved (the
 * normalizer, the sign-in page's section) and the steps of a sign-in, loaded
 * on the first sign-in through the flow. A server that only checks sessions,
 * as most requests do, never loads the steps: for OAuth that is oauth4webapi
 * and fifteen modules, which cost a cold start more than the rest of the core.
 * @module
 */

/** `load`, run on the first call and kept; a load that failed is tried again on the next call. */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = undefined
      throw error
    }))
}
