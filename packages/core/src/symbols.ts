/**
 * Symbol-keyed escape hatches, as in oauth4webapi: explicit and hard to set by accident.
 * @module
 */

/**
 * Turns CSRF checking off. For framework integrations that check CSRF themselves
 * (SvelteKit form actions check `Origin`). With it, the `csrf` action answers 404.
 * Never use it unless another layer protects state-changing requests.
 */
export const skipCSRFCheck = Symbol("skip-csrf-check")

/** Makes `Auth()` return the internal result (`ResponseInternal`) instead of a `Response`. */
export const raw = Symbol("return-type-raw")

/** Key of a provider option that replaces `fetch` for that provider's HTTP calls. */
export const customFetch = Symbol("custom-fetch")
