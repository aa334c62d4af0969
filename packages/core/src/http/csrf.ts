/**
 * CSRF protection with the double-submit cookie technique.
 *
 * The cookie holds `<token>|<HMAC-SHA-256(secret, token)>`: only this server can
 * mint a valid pair, so an attacker who can plant cookies (a sibling subdomain)
 * still cannot forge one; the `__Host-` prefix on https stops that planting too.
 * A state-changing POST must echo the token in its body, compared in constant
 * time. Beyond Auth.js, a POST whose `Origin` (or `Sec-Fetch-Site`) shows another
 * site is refused outright.
 * @module
 */
import type { RequestContext } from "../context.js"
import { MissingCSRF } from "../errors.js"
import { randomHex, timingSafeEqual } from "../lib/crypto.js"
import { actionUrl } from "./urls.js"

/** The CSRF token of this request's cookie if the cookie is genuine, otherwise `undefined`. */
async function tokenFromCookie(ctx: RequestContext): Promise<string | undefined> {
  const value = ctx.request.cookies[ctx.cookieOptions.csrfToken.name]
  if (!value) return undefined
  const [token, mac, ...rest] = value.split("|")
  if (!token || !mac || rest.length || !/^[0-9a-f]{64}$/.test(token)) return undefined
  const { keys } = ctx.config
  for (let index = 0; index < keys.secrets.length; index++) {
    if (timingSafeEqual(mac, await keys.hmac(token, index))) return token
  }
  return undefined
}

/**
 * The CSRF token to give the client: the one in a genuine cookie, or a new one
 * (and the cookie that carries it, added to `ctx.cookies`).
 */
export async function ensureCsrfToken(ctx: RequestContext): Promise<string> {
  const existing = await tokenFromCookie(ctx)
  if (existing) return existing
  const token = randomHex(32)
  const mac = await ctx.config.keys.hmac(token)
  ctx.cookies.push({ ...ctx.cookieOptions.csrfToken, value: `${token}|${mac}` })
  return token
}

/**
 * Throws `MissingCSRF` unless the POST is same-site and echoes the cookie's token. Each message
 * says what the client should do (JSON routes answer with it): it names no origin, token or cookie.
 */
export async function assertCsrf(ctx: RequestContext): Promise<void> {
  if (ctx.config.skipCSRFCheck) return
  const { headers, body } = ctx.request
  if (headers.get("sec-fetch-site") === "cross-site")
    throw new MissingCSRF("Cross-site request refused: post from the app's own pages")
  const origin = headers.get("origin")
  if (origin !== null && origin !== ctx.origin)
    throw new MissingCSRF(
      "Cross-origin request refused: the request's Origin is not the app's (check AUTH_URL)",
    )
  const csrfRoute = `GET ${new URL(actionUrl(ctx, "csrf")).pathname}`
  const expected = await tokenFromCookie(ctx)
  if (!expected)
    throw new MissingCSRF(
      `CSRF token cookie missing or invalid: call ${csrfRoute} first, and send its cookie with the POST`,
    )
  const submitted = body?.csrfToken
  if (typeof submitted !== "string" || !timingSafeEqual(submitted, expected)) {
    throw new MissingCSRF(
      `CSRF token missing or not matching the cookie: send csrfToken from ${csrfRoute} in the body (a form field or a JSON member)`,
    )
  }
}
