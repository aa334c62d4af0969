/**
 * The time bound of every HTTP request Tessera makes to another service: an
 * OAuth provider's discovery, token, userinfo and JWKS endpoints, a provider's
 * own `request` handlers, an HTTP mail API. Without one, a service that accepts
 * the connection and never answers holds the sign-in (and the connection) open
 * for as long as the runtime's fetch waits (undici: 300 s for the headers, no
 * bound on the body).
 *
 * The bound is given as the request's `signal`, so an app's `customFetch` sees
 * it and may replace it (a longer or shorter bound of its own); a signal the
 * caller already gave is kept as it is.
 * @module
 */

/** 10 s: far above a healthy provider's answer (well under a second), well below a proxy's 60 s. */
export const HTTP_TIMEOUT_MS = 10_000

/** `init` with the default bound as its `signal`, unless `init` already has a signal. */
export function withHttpTimeout(input: RequestInfo | URL, init?: RequestInit): RequestInit {
  if (init?.signal) return init
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS)
  // A Request carries a signal of its own: it keeps working, and the bound is added to it.
  const signal = input instanceof Request ? eitherSignal([input.signal, timeout]) : timeout
  return { ...init, signal }
}

/**
 * A signal that aborts when any of `signals` does, with its reason. Not
 * `AbortSignal.any`: on Node 20 a timeout signal given only to it can be
 * garbage-collected before it fires, and the request is then never ended. A
 * listener on each keeps them alive until they fire.
 */
export function eitherSignal(signals: AbortSignal[]): AbortSignal {
  const controller = new AbortController()
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason)
      break
    }
    signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true })
  }
  return controller.signal
}
