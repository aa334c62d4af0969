/**
 * Red team 7: a page response that carries a session cookie must not be kept
 * by a shared cache. When `locals.auth()` moves a session forward (the cookie
 * slides past `session.updateAge`), the page's response carries the new
 * session cookie; with no `Cache-Control`, a CDN that caches pages could keep
 * it and sign the next visitor in as this one. Such a response is made
 * `private, no-cache, no-store`, as core's own responses are; a page that sets
 * its own `Cache-Control` keeps it, and a response with no session cookie
 * gains nothing.
 */
import type { Handle } from "@sveltejs/kit"
import { afterEach, beforeEach, expect, it, vi } from "vitest"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { adapterWithAda, ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { createEvent, signInThroughHandle, type TestEvent } from "../helpers/kit.js"

beforeEach(() => {
  useKitRuntime({ NODE_ENV: "production" })
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2030-06-01T12:00:00Z") })
})
afterEach(() => {
  setKitRuntime()
  vi.useRealTimers()
})

/**
 * A page whose layout reads the session, as SvelteKit renders it: the load
 * runs inside `resolve`, and the cookies set meanwhile go on the response.
 */
async function page(handle: Handle, event: TestEvent, headers: Record<string, string> = {}) {
  return handle({
    event,
    resolve: async () => {
      const session = await event.locals.auth()
      const response = new Response(`hello ${session?.user?.name ?? "stranger"}`, { headers })
      for (const line of event.cookies.setCookieHeaders())
        response.headers.append("set-cookie", line)
      return response
    },
  })
}

const sessionCookieSet = (response: Response) =>
  response.headers.getSetCookie().some((line) => line.startsWith("tessera.session-token="))

it("a page that carries a moved-forward session cookie is private", async () => {
  const { handle } = SvelteKitAuth(testConfig({ adapter: adapterWithAda() }))
  const browser = await signInThroughHandle(handle, ORIGIN)
  vi.setSystemTime(Date.now() + 25 * 3600_000)
  const response = await page(handle, createEvent(browser.request(`${ORIGIN}/`)))
  expect(await response.text()).toBe("hello Ada")
  expect(sessionCookieSet(response)).toBe(true)
  expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
})

it("the page's own Cache-Control is kept", async () => {
  const { handle } = SvelteKitAuth(testConfig({ adapter: adapterWithAda() }))
  const browser = await signInThroughHandle(handle, ORIGIN)
  vi.setSystemTime(Date.now() + 25 * 3600_000)
  const response = await page(handle, createEvent(browser.request(`${ORIGIN}/`)), {
    "cache-control": "private, max-age=60",
  })
  expect(sessionCookieSet(response)).toBe(true)
  expect(response.headers.get("cache-control")).toBe("private, max-age=60")
})

it("a page with no session cookie to set gains no Cache-Control", async () => {
  const { handle } = SvelteKitAuth(testConfig({ adapter: adapterWithAda() }))
  const browser = await signInThroughHandle(handle, ORIGIN)
  const signedInPage = await page(handle, createEvent(browser.request(`${ORIGIN}/`)))
  expect(await signedInPage.text()).toBe("hello Ada")
  expect(sessionCookieSet(signedInPage)).toBe(false)
  expect(signedInPage.headers.get("cache-control")).toBeNull()
  const anonymous = await page(handle, createEvent(new Request(`${ORIGIN}/`)))
  expect(anonymous.headers.get("cache-control")).toBeNull()
})
