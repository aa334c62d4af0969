/**
 * Default cookie names and options.
 *
 * On https every cookie is `Secure` and prefixed: the CSRF cookie with `__Host-`
 * (no Domain, Path=/: it cannot be set by a sibling subdomain), the others with
 * `__Secure-`. All are HttpOnly and SameSite=Lax. The short-lived flow cookies
 * (PKCE, state, nonce, WebAuthn challenge) expire after 15 minutes.
 * @module
 */
import type { CookiesOptions } from "../types.js"

const FLOW_COOKIE_MAX_AGE = 15 * 60

export function defaultCookies(useSecureCookies: boolean): CookiesOptions {
  const secure = useSecureCookies ? "__Secure-" : ""
  const host = useSecureCookies ? "__Host-" : ""
  const base = { httpOnly: true, sameSite: "lax" as const, path: "/", secure: useSecureCookies }
  const flow = { ...base, maxAge: FLOW_COOKIE_MAX_AGE }
  return {
    sessionToken: { name: `${secure}tessera.session-token`, options: base },
    callbackUrl: { name: `${secure}tessera.callback-url`, options: base },
    csrfToken: { name: `${host}tessera.csrf-token`, options: base },
    pkceCodeVerifier: { name: `${secure}tessera.pkce.code_verifier`, options: flow },
    state: { name: `${secure}tessera.state`, options: flow },
    nonce: { name: `${secure}tessera.nonce`, options: flow },
    webauthnChallenge: { name: `${secure}tessera.challenge`, options: flow },
  }
}

/** Merges user cookie overrides over the defaults, option by option. */
export function mergeCookies(
  defaults: CookiesOptions,
  overrides: Partial<CookiesOptions> | undefined,
): CookiesOptions {
  if (!overrides) return defaults
  const merged = { ...defaults }
  for (const key of Object.keys(overrides) as (keyof CookiesOptions)[]) {
    const override = overrides[key]
    if (!override) continue
    merged[key] = {
      name: override.name ?? defaults[key].name,
      options: { ...defaults[key].options, ...override.options },
    }
  }
  return merged
}
