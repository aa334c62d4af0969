/**
 * Red team, round 7: the SvelteKit hook as an attacker (and a busy server)
 * drives it.
 *
 * - `locals.auth()` is cached per request: under concurrency, with a lazy
 *   configuration, no request ever reads another's session.
 * - `locals.auth()` first called after SvelteKit generated the response (a
 *   streamed promise, or a `handle` that reads the session after `resolve`):
 *   SvelteKit then throws from `cookies.set`. A cookie the session read wants
 *   to set (a stale cookie's expiry, a re-issued cookie after the record check)
 *   must not turn the read into a rejection.
 * - Only `<basePath>/<action>` reaches core: `/authx/...`, `/auth-x/...` and
 *   spellings that merely start like the base path stay the app's.
 */
import type { Handle } from "@sveltejs/kit"
import Credentials from "@tessera/core/providers/credentials"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { adapterWithAda, ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { Browser, createEvent, runHandle, type TestEvent } from "../helpers/kit.js"

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => {
  setKitRuntime()
  vi.useRealTimers()
})

/** Anyone with the password "pw" signs in as the user named by `username` (id = the name). */
const anyone = Credentials({
  credentials: { username: { label: "Username" }, password: { label: "Password" } },
  authorize: ({ username, password }) =>
    password === "pw" ? { id: String(username), name: String(username) } : null,
})

async function signedIn(handle: Handle, username: string, password = "pw"): Promise<Browser> {
  const browser = new Browser()
  const csrf = await runHandle(handle, createEvent(browser.request(`${ORIGIN}/auth/csrf`)))
  browser.receiveResponse(csrf.response)
  const { csrfToken } = (await csrf.response.json()) as { csrfToken: string }
  const response = await runHandle(
    handle,
    createEvent(
      browser.request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams({ username, password, csrfToken }),
      }),
    ),
  )
  expect(response.response.status).toBe(302)
  browser.receiveResponse(response.response)
  return browser
}

/**
 * `handle` as SvelteKit runs it: once `resolve` has produced the response,
 * `event.cookies.set` throws (SvelteKit's `respond`, in its `finally`).
 */
async function respond(handle: Handle, event: TestEvent, page?: () => Promise<unknown>) {
  return handle({
    event,
    resolve: async () => {
      try {
        return new Response(String(page ? await page() : "page"))
      } finally {
        event.cookies.set = () => {
          throw new Error("Cannot use `cookies.set(...)` after the response has been generated")
        }
      }
    },
  })
}

describe("locals.auth() under concurrency", () => {
  it("fifty interleaved requests of three users and nobody each read their own session", async () => {
    const config = testConfig({ providers: [anyone] })
    // A lazy configuration that yields to other requests before it answers.
    const { handle } = SvelteKitAuth(async () => {
      await new Promise((resolve) => setImmediate(resolve))
      return config
    })
    const browsers = {
      alice: await signedIn(handle, "alice"),
      bob: await signedIn(handle, "bob"),
      carol: await signedIn(handle, "carol"),
      nobody: new Browser(),
    }
    const names = Object.keys(browsers) as (keyof typeof browsers)[]
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const who = names[i % names.length]!
        const event = createEvent(browsers[who].request(`${ORIGIN}/page/${i}`))
        const response = await respond(handle, event, async () => {
          // Two reads, with other requests' work in between: one session, and it is this request's.
          const first = await event.locals.auth()
          await new Promise((resolve) => setImmediate(resolve))
          const second = await event.locals.getSession()
          expect(second).toBe(first)
          return first?.user?.name ?? "nobody"
        })
        return [who, await response.text()]
      }),
    )
    for (const [who, seen] of results) expect(seen).toBe(who)
  })
})

describe("locals.auth() after the response was generated", () => {
  it("a stale session cookie: null, not a rejection", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    const event = createEvent(
      new Request(`${ORIGIN}/streamed`, { headers: { cookie: "tessera.session-token=stale" } }),
    )
    const response = await respond(handle, event)
    expect(await response.text()).toBe("page")
    // A streamed promise (or the rest of `handle`) reads the session only now.
    await expect(event.locals.auth()).resolves.toBeNull()
  })

  it("a session whose cookie slides (updateAge passed, cookie re-issued): still the session", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2030-06-01T12:00:00Z") })
    const { handle } = SvelteKitAuth(testConfig({ adapter: adapterWithAda() }))
    const browser = await signedIn(handle, "ada", "lovelace")
    // Past session.updateAge (a day): the read re-issues the cookie with a later expiry.
    vi.setSystemTime(Date.now() + 25 * 3600_000)
    const event = createEvent(browser.request(`${ORIGIN}/streamed`))
    await respond(handle, event)
    const session = await event.locals.auth()
    expect(session?.user?.email).toBe("ada@example.com")
  })
})

describe("which paths the hook hands to core", () => {
  it.each([
    "/authx/signin",
    "/auth-x/session",
    "/authsignin",
    "/auth",
    "/auth/",
    "/auth//signin",
    "/auth/SignIn",
    "/auth/%73ignin",
    "/auth/signinx",
    "/api/auth/session",
  ])("%s stays the app's", async (path) => {
    const { handle } = SvelteKitAuth(testConfig())
    const { resolved } = await runHandle(handle, createEvent(new Request(`${ORIGIN}${path}`)))
    expect(resolved).toBe(true)
  })

  it("with basePath /app/auth: /app/authx and /auth stay the app's, /app/auth/csrf is core's", async () => {
    const { handle } = SvelteKitAuth(testConfig({ basePath: "/app/auth" }))
    const run = (path: string) => runHandle(handle, createEvent(new Request(`${ORIGIN}${path}`)))
    expect((await run("/app/authx/csrf")).resolved).toBe(true)
    expect((await run("/auth/csrf")).resolved).toBe(true)
    expect((await run("/app/auth/csrf")).resolved).toBe(false)
  })

  it("X-Forwarded-Host on an auth route does not move the page's forms", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    const { response } = await runHandle(
      handle,
      createEvent(
        new Request(`${ORIGIN}/auth/signin`, {
          headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
        }),
      ),
    )
    const page = await response.text()
    expect(page).toContain(`action="${ORIGIN}/auth/callback/credentials"`)
    expect(page).not.toContain("evil.example")
  })
})
