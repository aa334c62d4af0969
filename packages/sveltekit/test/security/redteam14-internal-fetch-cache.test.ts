/**
 * Red team 14: a page response that carries a session cookie must not be kept
 * by a shared cache, however the cookie got there. Red team 7 made a page
 * private when its own `locals.auth()` moved the session forward. A load that
 * asks an endpoint of the app through `event.fetch` (`/api/me`, whose
 * `locals.auth()` moves the session forward, or core's `/auth/session`) gets
 * the same cookie another way: SvelteKit copies the `Set-Cookie` lines of
 * such an internal response onto the page's own response. The page's
 * response then carried the visitor's fresh session cookie with no
 * `Cache-Control`: a CDN that caches pages could keep it and sign the next
 * visitor in as this one. A response that sets a cookie of Tessera's is made
 * `private, no-cache, no-store` whichever request set it; the page's own
 * `Cache-Control` is still kept, and cookies of the app's own change nothing.
 */
import { isRedirect, type Handle } from "@sveltejs/kit"
import { afterEach, beforeEach, expect, it } from "vitest"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import {
  createEvent,
  formRequest,
  signInThroughHandle,
  type Browser,
  type TestEvent,
} from "../helpers/kit.js"

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => setKitRuntime())

/** `Set-Cookie` lines of `event`'s jar on `response`, as SvelteKit adds them after `resolve`. */
function withCookies(event: TestEvent, response: Response): Response {
  for (const line of event.cookies.setCookieHeaders()) response.headers.append("set-cookie", line)
  return response
}

/** An endpoint of the app (`+server.ts`) answering the session its `locals.auth()` reads. */
const apiMe = (event: TestEvent) => async () =>
  withCookies(event, Response.json(await event.locals.auth()))

/**
 * The page `/`, whose load calls `event.fetch(path)`. SvelteKit runs the hook for
 * the internal request with the page's cookies, then sets every cookie of its
 * response on the page (`set_internal` in SvelteKit's `fetch`), which adds them to
 * the page's response after `resolve`.
 */
async function pageFetching(
  handle: Handle,
  browser: Browser,
  path: string,
  pageHeaders: Record<string, string> = {},
): Promise<Response> {
  const page = createEvent(browser.request(`${ORIGIN}/`))
  return handle({
    event: page,
    resolve: async () => {
      const internal = createEvent(
        new Request(new URL(path, ORIGIN), {
          headers: { cookie: page.request.headers.get("cookie") ?? "" },
        }),
      )
      const answer = await handle({ event: internal, resolve: apiMe(internal) })
      for (const line of answer.headers.getSetCookie()) {
        const [pair] = line.split(";")
        const eq = pair!.indexOf("=")
        const expired = /;\s*max-age=0/i.test(line)
        page.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim(), {
          path: "/",
          ...(expired ? { maxAge: 0 } : {}),
        })
      }
      await answer.text()
      return withCookies(page, new Response("page", { headers: pageHeaders }))
    },
  })
}

const sessionCookieSet = (response: Response) =>
  response.headers.getSetCookie().some((line) => line.startsWith("tessera.session-token="))

// updateAge 0: every read moves the session forward and re-issues its cookie.
const sliding = () => testConfig({ session: { updateAge: 0 } })

it.each(["/api/me", "/auth/session"])(
  "a page whose load fetches %s carries the moved-forward session cookie privately",
  async (path) => {
    const { handle } = SvelteKitAuth(sliding())
    const browser = await signInThroughHandle(handle, ORIGIN)
    const response = await pageFetching(handle, browser, path)
    expect(sessionCookieSet(response)).toBe(true)
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
  },
)

it("the page's own Cache-Control is kept", async () => {
  const { handle } = SvelteKitAuth(sliding())
  const browser = await signInThroughHandle(handle, ORIGIN)
  const response = await pageFetching(handle, browser, "/api/me", {
    "cache-control": "private, max-age=60",
  })
  expect(sessionCookieSet(response)).toBe(true)
  expect(response.headers.get("cache-control")).toBe("private, max-age=60")
})

it("the response of a form action that signs in is private", async () => {
  const { handle, signIn } = SvelteKitAuth(testConfig())
  const event = createEvent(
    formRequest(`${ORIGIN}/signin`, {
      providerId: "credentials",
      username: "ada",
      password: "lovelace",
    }),
  )
  const response = await handle({
    event,
    resolve: async () => {
      let location = "/"
      try {
        await signIn(event)
      } catch (thrown) {
        if (!isRedirect(thrown)) throw thrown
        location = thrown.location
      }
      return withCookies(event, new Response(null, { status: 303, headers: { location } }))
    },
  })
  expect(sessionCookieSet(response)).toBe(true)
  expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
})

it("a page that sets only cookies of the app's own gains no Cache-Control", async () => {
  const { handle } = SvelteKitAuth(sliding())
  const event = createEvent(new Request(`${ORIGIN}/`))
  const response = await handle({
    event,
    resolve: async () => {
      event.cookies.set("theme", "dark", { path: "/" })
      return withCookies(event, new Response("page"))
    },
  })
  expect(response.headers.getSetCookie()).toHaveLength(1)
  expect(response.headers.get("cache-control")).toBeNull()
})
