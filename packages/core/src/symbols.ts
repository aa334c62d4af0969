/**
 * Symbol-keyed escape hatches, as in oauth4webapi: explicit and hard to set by accident.
 * @module
 */

/**
 * Turns CSRF checking off. For framework integrations that check CSRF themselves
 * (SvelteKit form actions check `Origin`). With it, the `csrf` action answers 404.
 * Never use it unless another layer protects state-changing requests.
 *
 * @see [Auth.js: skipCSRFCheck](https://authjs.dev/reference/core#skipcsrfcheck)
 * @see [OWASP CSRF Prevention Cheat Sheet](https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html)
 */
export const skipCSRFCheck = Symbol("skip-csrf-check")

/**
 * Makes `Auth()` return the internal result (`ResponseInternal`) instead of a `Response`.
 *
 * @see [Auth.js: raw](https://authjs.dev/reference/core#raw)
 * @see {@link ResponseInternal}
 */
export const raw = Symbol("return-type-raw")

/**
 * Key of a provider option that replaces `fetch` for that provider's HTTP calls.
 *
 * @see [Auth.js: customFetch](https://authjs.dev/reference/core#customfetch)
 * @see [oauth4webapi: customFetch](https://github.com/panva/oauth4webapi/blob/main/docs/variables/customFetch.md)
 */
export const customFetch = Symbol("custom-fetch")
