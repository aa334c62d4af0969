/**
 * How a provider's HTTP calls are made: through its `customFetch` when it has
 * one, and over https only unless it opted into `http:` explicitly.
 * @module
 */
import * as o from "oauth4webapi"
import { customFetch } from "../../symbols.js"
import { HTTP_TIMEOUT_MS, withHttpTimeout } from "../../lib/http-timeout.js"
import type { ResolvedOAuthProvider } from "../types.js"

type Provider = ResolvedOAuthProvider

type HttpOptions = {
  [o.customFetch]?: typeof fetch
  [o.allowInsecureRequests]?: boolean
  signal?: () => AbortSignal
}

/**
 * The oauth4webapi transport options for `provider`. oauth4webapi sets no time
 * bound of its own: each request gets the default one (`lib/http-timeout.ts`)
 * as its `signal`, which the provider's `customFetch` receives and may replace.
 */
export function httpOptions(provider: Provider): HttpOptions {
  const options: HttpOptions = { signal: () => AbortSignal.timeout(HTTP_TIMEOUT_MS) }
  const custom = provider[customFetch]
  if (custom) options[o.customFetch] = custom
  if (provider.dangerouslyAllowInsecureHttpRequests === true)
    options[o.allowInsecureRequests] = true
  return options
}

/** True when `url` may be requested for `provider`. */
export function isAllowedUrl(provider: Provider, url: URL): boolean {
  return (
    url.protocol === "https:" ||
    (url.protocol === "http:" && provider.dangerouslyAllowInsecureHttpRequests === true)
  )
}

/**
 * The `fetch` given to custom `request` handlers and used for Tessera's own
 * calls outside oauth4webapi: the provider's `customFetch` (or the global one),
 * refusing `http:` URLs unless the provider allows them, never following
 * redirects (a redirect could lead a bearer token to another host), and bounded
 * in time unless the caller gave a signal of its own.
 */
export function providerFetch(provider: Provider): typeof fetch {
  const base = provider[customFetch] ?? globalThis.fetch
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (!isAllowedUrl(provider, url)) {
      return Promise.reject(
        new TypeError(`Refusing to request a non-https URL for provider "${provider.id}"`),
      )
    }
    return base(input, { redirect: "manual", ...withHttpTimeout(input, init) })
  }
}
