/**
 * Found by bench/compat-diff-integrations.mjs: an app with SvelteKit's `paths.base` (say
 * `/base`). @auth/sveltekit mounts its routes at `${base}/auth` (`$app/paths`), and its client
 * posts there; SvelteKit's `event.url.pathname` starts with the base, so routes left at `/auth`
 * are never reached and every sign-in fails. With no `basePath` of the app's own, the hook, the
 * form actions and `locals.auth()` use `<base>/auth`, as Auth.js does.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { isRedirect } from "@sveltejs/kit"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { signIn as clientSignIn, signOut as clientSignOut } from "../../src/client.js"
import { setBase } from "../helpers/app-paths.js"
import { ORIGIN, testConfig } from "../helpers/config.js"
import { Browser, createEvent, formRequest, runHandle } from "../helpers/kit.js"

afterEach(() => {
  setKitRuntime()
  setBase("")
  vi.unstubAllGlobals()
})

const withBase = (base: string, env: Record<string, string> = {}) =>
  setKitRuntime(() => ({ building: false, env: { NODE_ENV: "production", ...env }, base }))

async function redirectOf(action: (event: any) => unknown, request: Request) {
  try {
    await action(createEvent(request))
  } catch (thrown) {
    if (isRedirect(thrown)) return thrown.location
    throw thrown
  }
  throw new Error("the action did not redirect")
}

describe("SvelteKit paths.base", () => {
  it("serves the auth routes at <base>/auth, and passes /auth on to the app", async () => {
    withBase("/base")
    const { handle } = SvelteKitAuth(testConfig())
    const csrf = await runHandle(handle, createEvent(new Request(`${ORIGIN}/base/auth/csrf`)))
    expect(csrf.resolved).toBe(false)
    expect(csrf.response.status).toBe(200)
    expect(await csrf.response.json()).toEqual({ csrfToken: expect.any(String) })
    const providers = await runHandle(
      handle,
      createEvent(new Request(`${ORIGIN}/base/auth/providers`)),
    )
    expect((await providers.response.json()).credentials.callbackUrl).toBe(
      `${ORIGIN}/base/auth/callback/credentials`,
    )
    const outside = await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/csrf`)))
    expect(outside.resolved).toBe(true)
  })

  it("signs in under <base>/auth, and locals.auth() reads the session", async () => {
    withBase("/base")
    const { handle } = SvelteKitAuth(testConfig())
    const browser = new Browser()
    const csrf = await runHandle(handle, createEvent(browser.request(`${ORIGIN}/base/auth/csrf`)))
    browser.receiveResponse(csrf.response)
    const { csrfToken } = (await csrf.response.json()) as { csrfToken: string }
    const callback = await runHandle(
      handle,
      createEvent(
        browser.request(`${ORIGIN}/base/auth/callback/credentials`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
          body: new URLSearchParams({ username: "ada", password: "lovelace", csrfToken }),
        }),
      ),
    )
    expect(callback.response.status).toBe(302)
    browser.receiveResponse(callback.response)
    const page = createEvent(browser.request(`${ORIGIN}/base/account`))
    await runHandle(handle, page)
    expect(await page.locals.auth()).toMatchObject({ user: { email: "ada@example.com" } })
  })

  it("the signIn action sends the browser to <base>/auth/signin", async () => {
    withBase("/base")
    const { signIn } = SvelteKitAuth(testConfig())
    const location = await redirectOf(
      signIn,
      formRequest(`${ORIGIN}/base/signin`, { redirectTo: "/base/after" }),
    )
    expect(new URL(location, ORIGIN).href).toBe(
      `${ORIGIN}/base/auth/signin?callbackUrl=%2Fbase%2Fafter`,
    )
  })

  it("an explicit basePath, or AUTH_URL's path, still wins", async () => {
    withBase("/base")
    const own = SvelteKitAuth(testConfig({ basePath: "/base/login" }))
    const a = await runHandle(own.handle, createEvent(new Request(`${ORIGIN}/base/login/csrf`)))
    expect(a.resolved).toBe(false)
    withBase("/base", { AUTH_URL: `${ORIGIN}/base/api/auth` })
    const fromEnv = SvelteKitAuth(testConfig())
    const b = await runHandle(
      fromEnv.handle,
      createEvent(new Request(`${ORIGIN}/base/api/auth/csrf`)),
    )
    expect(b.resolved).toBe(false)
  })

  it("the client posts to <base>/auth (SvelteKit's `base`), signs in and out", async () => {
    withBase("/base")
    setBase("/base")
    const { handle } = SvelteKitAuth(testConfig())
    const browser = new Browser()
    const paths: string[] = []
    vi.stubGlobal("window", { location: { href: `${ORIGIN}/base/login`, reload: () => {} } })
    vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers)
      if ((init.method ?? "GET").toUpperCase() === "POST") headers.set("origin", ORIGIN)
      const request = browser.request(new URL(input, ORIGIN).href, { ...init, headers })
      paths.push(new URL(request.url).pathname)
      const { response } = await runHandle(handle, createEvent(request))
      browser.receiveResponse(response)
      return response
    })
    const result = await clientSignIn("credentials", {
      username: "ada",
      password: "lovelace",
      redirect: false,
      redirectTo: "/base/after",
    })
    expect(result).toMatchObject({ ok: true, error: undefined })
    expect(paths.every((p) => p.startsWith("/base/auth/"))).toBe(true)
    expect(paths).toContain("/base/auth/callback/credentials")
    expect(await clientSignOut({ redirect: false })).toMatchObject({ url: expect.any(String) })
    expect(paths.at(-1)).toBe("/base/auth/signout")
  })
})
