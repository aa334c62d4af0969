/**
 * Found by bench/compat-diff.mjs (scenario "sign-out and events.signOut"): Auth.js fires
 * `events.signOut` only when a session ended — with JWT sessions when the cookie decoded to a
 * token, with database sessions when the browser sent a session cookie and the adapter's
 * `deleteSession` returned. Tessera fired it for every POST signout, with `{ token: null }` or
 * `{ session: null }` for a browser that was not signed in (or sent a cookie that does not
 * decode), so a handler written for Auth.js (`signOut({ token }) { audit(token.sub) }`) threw
 * on such a request.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { memoryBackend } from "../harness/backends.js"
import {
  ADA,
  csrfToken,
  isExpired,
  Jar,
  makeConfig,
  post,
  sessionCookieName,
  setCookie,
  signIn,
} from "../harness/index.js"

const COOKIE = sessionCookieName()

function recording(overrides: Partial<AuthConfig> = {}) {
  const events: unknown[] = []
  const { config, log } = makeConfig({
    events: { signOut: (message) => void events.push(message) },
    ...overrides,
  })
  return { config, events, log }
}

async function signOut(config: AuthConfig, jar: Jar) {
  const { token } = await csrfToken(config, jar)
  const response = await Auth(post("/auth/signout", { csrfToken: token }, { jar }), config)
  expect(response.status).toBe(302)
  return response
}

describe.each([
  ["jwt", () => ({})],
  ["database", () => ({ adapter: memoryBackend().adapter })],
] as const)("%s sessions: events.signOut", (_strategy, extra) => {
  test("a browser that is not signed in signs out without the event", async () => {
    const { config, events } = recording(extra())
    await signOut(config, new Jar())
    expect(events).toEqual([])
  })

  test("a signed-in browser signs out with the event", async () => {
    const { config, events } = recording(extra())
    const { jar } = await signIn(config)
    await signOut(config, jar)
    expect(events).toHaveLength(1)
    expect(JSON.stringify(events[0])).toContain(ADA.id)
  })
})

test("jwt sessions: a session cookie that does not decode signs out without the event", async () => {
  const { config, events } = recording()
  await signOut(config, new Jar({ [COOKIE]: "garbage" }))
  expect(events).toEqual([])
})

test("database sessions: a deleteSession that throws signs out without the event", async () => {
  const adapter = memoryBackend().adapter
  const { config, events, log } = recording({
    adapter: {
      ...adapter,
      deleteSession: async () => {
        throw new Error("database down")
      },
    },
  })
  const { jar } = await signIn(config)
  const response = await signOut(config, jar)
  // The browser is signed out all the same (its cookie cleared), the failure logged.
  expect(isExpired(setCookie(response, COOKIE)!)).toBe(true)
  expect(events).toEqual([])
  expect(log.errors.length).toBeGreaterThan(0)
})
