/**
 * Default cookie names and options.
 *
 * On https every cookie is `Secure` and prefixed: the CSRF cookie and the
 * short-lived flow cookies (PKCE verifier, state, nonce, WebAuthn challenge,
 * the sign-in waiting for its second factor)
 * with `__Host-` (no Domain, Path=/: a sibling subdomain cannot set them, so it
 * cannot plant its own sign-in into a victim's browser), the others with
 * `__Secure-`. All are HttpOnly and SameSite=Lax. The flow cookies expire
 * after 15 minutes.
 * @module
 */
import { InvalidConfiguration } from "../errors.js"
import type { CookiesOptions } from "../types.js"

const FLOW_COOKIE_MAX_AGE = 15 * 60

/**
 * Every cookie, resolved: the public `CookiesOptions` leaves Tessera's own
 * `twoFactor` optional (Auth.js's type has seven keys), Tessera always has it.
 */
export type ResolvedCookies = Required<CookiesOptions>

export function defaultCookies(useSecureCookies: boolean): ResolvedCookies {
  const secure = useSecureCookies ? "__Secure-" : ""
  const host = useSecureCookies ? "__Host-" : ""
  const base = { httpOnly: true, sameSite: "lax" as const, path: "/", secure: useSecureCookies }
  const flow = { ...base, maxAge: FLOW_COOKIE_MAX_AGE }
  return {
    sessionToken: { name: `${secure}tessera.session-token`, options: base },
    callbackUrl: { name: `${secure}tessera.callback-url`, options: base },
    csrfToken: { name: `${host}tessera.csrf-token`, options: base },
    pkceCodeVerifier: { name: `${host}tessera.pkce.code_verifier`, options: flow },
    state: { name: `${host}tessera.state`, options: flow },
    nonce: { name: `${host}tessera.nonce`, options: flow },
    webauthnChallenge: { name: `${host}tessera.challenge`, options: flow },
    twoFactor: { name: `${host}tessera.two-factor`, options: flow },
  }
}

/**
 * Merges user cookie overrides over the defaults, option by option. A
 * `__Host-` name with a `domain` or another `path` would be dropped by every
 * browser: refused here rather than failing silently on the first sign-in.
 */
export function mergeCookies(
  defaults: ResolvedCookies,
  overrides: Partial<CookiesOptions> | undefined,
): ResolvedCookies {
  if (!overrides) return defaults
  const merged = { ...defaults }
  for (const key of Object.keys(overrides) as (keyof CookiesOptions)[]) {
    const override = overrides[key]
    if (!override) continue
    merged[key] = {
      name: override.name ?? defaults[key].name,
      options: { ...defaults[key].options, ...override.options },
    }
    const { name, options } = merged[key]
    if (name.startsWith("__Host-") && (options.domain || (options.path ?? "/") !== "/")) {
      throw new InvalidConfiguration(
        `cookies.${key}: a __Host- cookie cannot have a domain or a path other than "/"; rename it or drop those options`,
      )
    }
  }
  return merged
}
