/**
 * Found by bench/compat-diff.mjs (scenario "JWT session.maxAge of an hour, a request every 40
 * minutes"): an Auth.js app that sets `session: { maxAge: 3600 }` with JWT sessions uses it as an
 * idle timeout — Auth.js moves the expiry forward on every session read, so a user active within
 * the hour stays signed in. Tessera slid the expiry only once `updateAge` (24 h by default) had
 * passed since the cookie was issued, which with a one-hour `maxAge` is never: an active user was
 * signed out an hour after signing in. The expiry now slides once `updateAge` or a tenth of
 * `maxAge` has passed, whichever is shorter (the cookie is still not re-issued on every read).
 */
import { afterEach, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import {
  get,
  type Jar,
  makeConfig,
  sessionCookieName,
  setCookie,
  signIn,
} from "../harness/index.js"

const COOKIE = sessionCookieName()
const MINUTE = 60_000

afterEach(() => {
  vi.useRealTimers()
})

async function readSession(config: AuthConfig, jar: Jar) {
  const response = await Auth(get("/auth/session", { jar }), config)
  jar.update(response)
  return { response, body: (await response.json()) as { expires: string } | null }
}

test("session.maxAge of an hour: a user active every 40 minutes stays signed in", async () => {
  vi.useFakeTimers({ toFake: ["Date"] })
  const start = Date.now()
  const { config } = makeConfig({ session: { maxAge: 3600 } })
  const { jar } = await signIn(config)
  for (const minutes of [40, 80, 120, 160]) {
    vi.setSystemTime(start + minutes * MINUTE)
    const { body } = await readSession(config, jar)
    expect(body, `${minutes} minutes after signing in`).not.toBeNull()
    // As in Auth.js, the session then lasts maxAge from this visit.
    expect(Date.parse(body!.expires)).toBe(Math.floor(Date.now() / 1000) * 1000 + 3600_000)
  }
  // An hour and more without a visit ends it.
  vi.setSystemTime(start + (160 + 61) * MINUTE)
  expect((await readSession(config, jar)).body).toBeNull()
})

test("the cookie is still not re-issued on every read: only once a tenth of maxAge has passed", async () => {
  vi.useFakeTimers({ toFake: ["Date"] })
  const start = Date.now()
  const { config } = makeConfig({ session: { maxAge: 3600 } })
  const { jar } = await signIn(config)
  vi.setSystemTime(start + 5 * MINUTE)
  expect(setCookie((await readSession(config, jar)).response, COOKIE)).toBeUndefined()
  vi.setSystemTime(start + 7 * MINUTE)
  expect(setCookie((await readSession(config, jar)).response, COOKIE)).toBeDefined()
})
