/**
 * Red team 7: a page response that carries a session cookie must not be kept
 * by a shared cache. When `locals.auth()` moves a session forward (the cookie
 * slides past `session.updateAge`), the page's response carries the new
 * session cookie; with no `Cache-Control`, a CDN that caches pages could keep
 * it and sign the next visitor in as this one. Such a response is made
 * `private, no-cache, no-store`, as core's own responses are; a page that sets
 * its own private or `no-store` `Cache-Control` keeps it.
 *
 * Left out then: a signed-in page whose cookie did not slide carried no
 * `Cache-Control` at all, and a page's `public, max-age=...` was kept next to
 * a session cookie. Any response for which `locals.auth()` found a session is
 * now private, whether or not its cookie was re-issued; an anonymous page,
 * and one that never asks for the session, is untouched.
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

it("a signed-in page whose cookie did not slide is private all the same; an anonymous one is untouched", async () => {
  const { handle } = SvelteKitAuth(testConfig({ adapter: adapterWithAda() }))
  const browser = await signInThroughHandle(handle, ORIGIN)
  const signedInPage = await page(handle, createEvent(browser.request(`${ORIGIN}/`)))
  expect(await signedInPage.text()).toBe("hello Ada")
  expect(sessionCookieSet(signedInPage)).toBe(false)
  expect(signedInPage.headers.get("cache-control")).toBe("private, no-cache, no-store")
  const anonymous = await page(handle, createEvent(new Request(`${ORIGIN}/`)))
  expect(await anonymous.text()).toBe("hello stranger")
  expect(anonymous.headers.get("cache-control")).toBeNull()
})

it("a signed-in page's shared-cache Cache-Control gives way; one that is already private or no-store is kept", async () => {
  const { handle } = SvelteKitAuth(testConfig({ adapter: adapterWithAda() }))
  const browser = await signInThroughHandle(handle, ORIGIN)
  const cacheControlOf = async (value: string) =>
    (
      await page(handle, createEvent(browser.request(`${ORIGIN}/`)), { "cache-control": value })
    ).headers.get("cache-control")
  // A CDN would keep these and hand Ada's page to the next visitor.
  expect(await cacheControlOf("public, max-age=3600")).toBe("private, no-cache, no-store")
  expect(await cacheControlOf("s-maxage=600, stale-while-revalidate=60")).toBe(
    "private, no-cache, no-store",
  )
  expect(await cacheControlOf("no-cache")).toBe("private, no-cache, no-store")
  // Private for the named fields only: the page itself may still be stored.
  expect(await cacheControlOf('private="set-cookie", max-age=60')).toBe(
    "private, no-cache, no-store",
  )
  // The app's own stricter (or as strict) word stands.
  expect(await cacheControlOf("private, max-age=60")).toBe("private, max-age=60")
  expect(await cacheControlOf("no-store")).toBe("no-store")
  expect(await cacheControlOf("Private, Max-Age=0")).toBe("Private, Max-Age=0")
})

it("an anonymous page keeps its public Cache-Control", async () => {
  const { handle } = SvelteKitAuth(testConfig({ adapter: adapterWithAda() }))
  const anonymous = await page(handle, createEvent(new Request(`${ORIGIN}/`)), {
    "cache-control": "public, max-age=3600",
  })
  expect(anonymous.headers.get("cache-control")).toBe("public, max-age=3600")
})

it("a page that never asks for the session is untouched, signed in or not", async () => {
  const { handle } = SvelteKitAuth(testConfig({ adapter: adapterWithAda() }))
  const browser = await signInThroughHandle(handle, ORIGIN)
  const response = await handle({
    event: createEvent(browser.request(`${ORIGIN}/about`)),
    resolve: async () =>
      new Response("about", { headers: { "cache-control": "public, max-age=60" } }),
  })
  expect(response.headers.get("cache-control")).toBe("public, max-age=60")
})

it("a streamed page whose session read is still under way when the head goes out is private", async () => {
  // The session callback waits until the test lets it go: the read settles after `resolve`.
  let release = () => {}
  let held = Promise.resolve()
  const { handle } = SvelteKitAuth(
    testConfig({
      adapter: adapterWithAda(),
      callbacks: {
        async session({ session }) {
          await held
          return session
        },
      },
    }),
  )
  const browser = await signInThroughHandle(handle, ORIGIN)
  held = new Promise<void>((done) => (release = done))
  const event = createEvent(browser.request(`${ORIGIN}/`))
  // SvelteKit streams a load's unawaited promise: the shell (and its headers) goes first,
  // Ada's name follows in the same body, which a shared cache would keep with the rest.
  const response = await handle({
    event,
    resolve: async () => {
      const name = event.locals.auth().then((session) => session?.user?.name ?? "stranger")
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("shell "))
          controller.enqueue(new TextEncoder().encode(`hello ${await name}`))
          controller.close()
        },
      })
      return new Response(body, { headers: { "cache-control": "public, max-age=60" } })
    },
  })
  release()
  expect(await response.text()).toBe("shell hello Ada")
  expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
})
