/**
 * Second factors as a user and an authenticator app do them, through
 * `Auth()`: set up and confirm a factor for the signed-in user, compute the
 * codes an app would show (on a clock the test moves), and finish a sign-in
 * at `callback/two-factor`.
 */
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import { generateHOTP } from "@oslojs/otp"
import { vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { csrfToken, get, Jar, post } from "../harness/index.js"

/** What an authenticator app shows for `secret` (base32) at `now`. */
export function codeFor(secret: string, now = Date.now(), offsetSteps = 0): string {
  const step = Math.floor(now / 30_000) + offsetSteps
  return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), 6)
}

/** A clock the test moves, step by step: `Date` only, so timers and I/O run as usual. */
export function fakeClock(start = Date.parse("2030-06-01T12:00:05Z")) {
  vi.useFakeTimers({ toFake: ["Date"], now: start })
  return {
    /** Moves to the next 30-second TOTP step (and `seconds` more). */
    nextStep(seconds = 30) {
      vi.setSystemTime(Date.now() + seconds * 1000)
    },
  }
}

/** A form POST with the jar's CSRF token; returns the response (the jar is updated). */
export async function postForm(
  config: AuthConfig,
  jar: Jar,
  path: string,
  fields: Record<string, string> = {},
  options: { headers?: Record<string, string>; origin?: string; basePath?: string } = {},
): Promise<Response> {
  const { headers, origin, basePath } = options
  const { token } = await csrfToken(config, jar, origin, basePath)
  const response = await Auth(
    post(path, { ...fields, csrfToken: token }, { jar, headers, origin }),
    config,
  )
  jar.update(response)
  return response
}

export async function getJson(config: AuthConfig, jar: Jar, path: string) {
  const response = await Auth(get(path, { jar }), config)
  jar.update(response)
  return { status: response.status, body: (await response.json()) as any }
}

export interface SetUpFactor {
  secret: string
  uri: string
  qr: string
  recoveryCodes: string[]
}

/** Sets up and confirms a second factor for the user signed in in `jar`. */
export async function enableTwoFactor(
  config: AuthConfig,
  jar: Jar,
  options: { origin?: string; basePath?: string } = {},
): Promise<SetUpFactor> {
  const base = options.basePath ?? "/auth"
  const setup = await postForm(config, jar, `${base}/two-factor/setup`, {}, options)
  if (setup.status !== 200) throw new Error(`setup answered ${setup.status}`)
  const factor = (await setup.json()) as SetUpFactor
  const enable = await postForm(
    config,
    jar,
    `${base}/two-factor/enable`,
    { code: codeFor(factor.secret) },
    options,
  )
  if (enable.status !== 200) throw new Error(`enable answered ${enable.status}`)
  return factor
}

export async function session(config: AuthConfig, jar: Jar) {
  return (await Auth(get("/auth/session", { jar }), config)).json()
}

/** POST callback/two-factor with `code`, as the two-factor page's form does. */
export function submitCode(
  config: AuthConfig,
  jar: Jar,
  code: string,
  options: { origin?: string; basePath?: string } = {},
): Promise<Response> {
  const base = options.basePath ?? "/auth"
  return postForm(config, jar, `${base}/callback/two-factor`, { code }, options)
}

export { Jar }
