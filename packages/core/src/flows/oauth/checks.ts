/**
 * The PKCE code verifier, state and nonce travel from the sign-in request to
 * the callback in their own cookies, each also naming who started the sign-in
 * (see `binding.ts`): encrypted (jwt.ts, the cookie name as
 * salt, so one cannot be swapped for another), HttpOnly, 15 minutes. A cookie
 * is cleared as soon as the callback reads it, whatever the outcome: each
 * value serves one authorization response only.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { InvalidCheck } from "../../errors.js"
import { expiredCookie } from "../../http/cookies.js"
import { decrypt, encrypt } from "../../jwt/codec.js"
import type { CookieOption } from "../../types.js"

export type CheckCookie = "pkceCodeVerifier" | "state" | "nonce"

const LABELS: Record<CheckCookie, string> = {
  pkceCodeVerifier: "PKCE code verifier",
  state: "state",
  nonce: "nonce",
}
const DEFAULT_MAX_AGE = 15 * 60

/**
 * Sets the cookie carrying `value`. `crossSite` is for `response_mode=form_post`:
 * the provider's page POSTs the callback cross-site, and only `SameSite=None`
 * (which browsers require to be `Secure`) cookies go with such a request.
 */
export async function setCheckCookie(
  ctx: RequestContext,
  check: CheckCookie,
  value: string,
  crossSite: boolean,
  startedBy: string,
): Promise<void> {
  const option = ctx.cookieOptions[check]
  const maxAge = option.options.maxAge ?? DEFAULT_MAX_AGE
  // The provider too: a callback takes only the checks of a sign-in started with its own
  // provider (Auth.js binds them the same way), so a code from one cannot ride on another's.
  const provider = ctx.request.providerId
  const token = await encrypt(ctx.config.keys, option.name, { value, startedBy, provider }, maxAge)
  ctx.cookies.push({
    name: option.name,
    value: token,
    options: {
      ...crossSiteOptions(option, crossSite),
      maxAge,
      expires: new Date(Date.now() + maxAge * 1000),
    },
  })
}

export function crossSiteOptions(
  option: CookieOption,
  crossSite: boolean,
): CookieOption["options"] {
  return crossSite ? { ...option.options, sameSite: "none", secure: true } : option.options
}

/**
 * The value stored by `setCheckCookie`, and the cookie cleared. Throws
 * `InvalidCheck` when the cookie is missing, forged, or expired.
 */
/** What a check cookie carries: the check's value and who started the sign-in (see `binding.ts`). */
interface CheckPayload {
  value: string
  startedBy: string | undefined
}

export async function useCheckCookie(
  ctx: RequestContext,
  check: CheckCookie,
): Promise<CheckPayload> {
  const option = ctx.cookieOptions[check]
  const raw = ctx.request.cookies[option.name]
  if (!raw)
    throw new InvalidCheck(
      `The ${LABELS[check]} cookie is missing (expired, or the sign-in started in another browser)`,
    )
  ctx.cookies.push(expiredCookie(option))
  let payload: { value?: unknown; startedBy?: unknown; provider?: unknown }
  try {
    payload = await decrypt(ctx.config.keys, option.name, raw)
  } catch {
    throw new InvalidCheck(
      `The ${LABELS[check]} cookie could not be read (tampered with or expired)`,
    )
  }
  if (typeof payload?.value !== "string" || payload.value === "") {
    throw new InvalidCheck(`The ${LABELS[check]} cookie has no value`)
  }
  if (payload.provider !== ctx.request.providerId) {
    throw new InvalidCheck(`The ${LABELS[check]} cookie is for a sign-in with another provider`)
  }
  const startedBy = typeof payload.startedBy === "string" ? payload.startedBy : undefined
  return { value: payload.value, startedBy }
}

/**
 * Reads all the `wanted` check cookies, clearing every one present before
 * reporting the first that fails: a refused callback leaves none behind.
 */
export async function useCheckCookies(
  ctx: RequestContext,
  wanted: CheckCookie[],
): Promise<{ values: Partial<Record<CheckCookie, string>>; startedBy: string | undefined }> {
  const values: Partial<Record<CheckCookie, string>> = {}
  const starters = new Set<string | undefined>()
  let failure: unknown
  for (const check of wanted) {
    try {
      const payload = await useCheckCookie(ctx, check)
      values[check] = payload.value
      starters.add(payload.startedBy)
    } catch (error) {
      failure ??= error
    }
  }
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- what useCheckCookie threw
  if (failure) throw failure
  // Cookies of two different sign-ins mixed together: no one can be said to have started this one.
  if (starters.size > 1) throw new InvalidCheck("The check cookies belong to different sign-ins")
  return { values, startedBy: starters.values().next().value }
}
