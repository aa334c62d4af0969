/**
 * A time bound on an e-mail provider's `sendVerificationRequest`. A mail
 * server that takes the message and never answers it (nodemailer's own bounds
 * measure silence, so one that trickles, or an app's long `socketTimeout`,
 * never ends it), or an app's sender awaiting something that never comes,
 * would hold the sign-in request open for good; past the bound the call fails
 * as a sender that threw does (`error=EmailSignin`). The sender's late answer,
 * whatever it is, is ignored (the race has already listened to it, so a late
 * rejection is never unhandled). The same idea as the rate-limit stores'
 * `storeTimeout` (../../rate-limit/bounded-store.ts).
 * @module
 */
import { isStoreTimeout, MAX_STORE_TIMEOUT_MS } from "../../rate-limit/bounded-store.js"

/**
 * 30 s: a working SMTP server or mail API takes well under a few seconds, and a
 * slow one (a relay doing its spam checks at the end of DATA) seconds more; the
 * bound is there for one that never answers, not to fail a slow one. Long
 * enough that the Nodemailer provider's own bounds for a server that is down or
 * never greets (10 s to connect, 10 s for the greeting) fire first with their
 * more precise error; no longer than its 30 s of silence, the longest a stalled
 * server holds a sign-in with the defaults; and well within the 60 s after
 * which common reverse proxies (nginx's `proxy_read_timeout`) give up on the
 * request, so the user still gets the sign-in page's error, not a gateway's.
 */
export const DEFAULT_SEND_TIMEOUT_MS = 30_000

/** The most `setTimeout` takes (2^31 − 1 ms): a larger bound would fire at once. */
export const MAX_SEND_TIMEOUT_MS = MAX_STORE_TIMEOUT_MS

/** True for a bound `setTimeout` honours: a positive number of milliseconds, at most ~24.8 days. */
export const isSendTimeout: (value: unknown) => value is number = isStoreTimeout

/**
 * What `send()` resolves to, or a failure with a `TimeoutError` (the web
 * platform's, as `AbortSignal.timeout` raises) once `ms` have passed. The
 * message names the provider only: never the address, the link or the code.
 * The timer is cleared however the race ends.
 */
export function boundedSend(providerId: string, ms: number, send: () => unknown): Promise<void> {
  // A sender that throws instead of returning a promise fails the same way.
  const answer = new Promise<void>((resolve) => resolve(send() as Promise<void>))
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const message = `E-mail provider "${providerId}" did not send the sign-in e-mail within ${ms} ms`
      reject(new DOMException(message, "TimeoutError"))
    }, ms)
  })
  return Promise.race([answer, late]).finally(() => clearTimeout(timer))
}
