import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { SvelteKitAuth } from "../src/index.js"
import { setKitRuntime } from "../src/env.js"
import { ORIGIN, SECRET, testConfig, useKitRuntime } from "./helpers/config.js"
import { Browser, createEvent, runHandle } from "./helpers/kit.js"

const SESSION = "tessera.session-token"
const CSRF = "tessera.csrf-token"

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => {
  setKitRuntime()
  vi.restoreAllMocks()
})

/** Signs "ada" in through handle's own routes (CSRF token included) and returns the browser. */
async function signedInBrowser(
  handle: ReturnType<typeof SvelteKitAuth>["handle"],
  origin = ORIGIN,
): Promise<Browser> {
  const browser = new Browser()
  const csrf = await runHandle(handle, createEvent(browser.request(`${origin}/auth/csrf`)))
  browser.receiveResponse(csrf.response)
  const { csrfToken } = (await csrf.response.json()) as { csrfToken: string }
  const signIn = await runHandle(
    handle,
    createEvent(
      browser.request(`${origin}/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: new URLSearchParams({
          username: "ada",
          password: "lovelace",
          csrfToken,
          callbackUrl: "/dashboard",
        }),
      }),
    ),
  )
  expect(signIn.response.status).toBe(302)
  expect(signIn.response.headers.get("location")).toBe(`${origin}/dashboard`)
  browser.receiveResponse(signIn.response)
  return browser
}

describe("handle", () => {
  it("passes app requests on and sets locals.auth(), null without a session", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    const event = createEvent(new Request(`${ORIGIN}/dashboard`))
    const { response, resolved } = await runHandle(handle, event)
    expect(resolved).toBe(true)
    expect(await response.text()).toBe("page")
    expect(await event.locals.auth()).toBeNull()
    expect(event.cookies.set_).toEqual([])
  })

  it("answers the auth actions under /auth itself", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    for (const path of ["/auth/csrf", "/auth/providers", "/auth/session", "/auth/signin"]) {
      const { response, resolved } = await runHandle(
        handle,
        createEvent(new Request(`${ORIGIN}${path}`)),
      )
      expect(resolved, path).toBe(false)
      expect(response.status, path).toBe(200)
    }
    const providers = await (
      await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/providers`)))
    ).response.json()
    expect(providers.credentials).toMatchObject({
      id: "credentials",
      type: "credentials",
      callbackUrl: `${ORIGIN}/auth/callback/credentials`,
    })
  })

  it("leaves other paths, including unknown ones under /auth, to the app", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    for (const path of ["/", "/auth", "/auth/", "/auth/custom-page", "/authors/csrf", "/signin"]) {
      const { resolved } = await runHandle(handle, createEvent(new Request(`${ORIGIN}${path}`)))
      expect(resolved, path).toBe(true)
    }
  })

  it("honours a custom basePath", async () => {
    const { handle } = SvelteKitAuth(testConfig({ basePath: "/api/auth" }))
    expect(
      (await runHandle(handle, createEvent(new Request(`${ORIGIN}/api/auth/csrf`)))).resolved,
    ).toBe(false)
    expect(
      (await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/csrf`)))).resolved,
    ).toBe(true)
  })

  it("keeps CSRF protection on its own routes: a credentials POST without a token is refused", async () => {
    const config = testConfig()
    const { handle } = SvelteKitAuth(config)
    const event = createEvent(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams({ username: "ada", password: "lovelace" }),
      }),
    )
    const { response, resolved } = await runHandle(handle, event)
    expect(resolved).toBe(false)
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("Signin")
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION}=`))).toBe(false)
    expect(config.authorizeRequests).toHaveLength(0)
    // The csrf action answers (it would be 404 with CSRF checking off).
    const csrf = await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/csrf`)))
    expect(csrf.response.status).toBe(200)
    expect(csrf.response.headers.getSetCookie()[0]).toMatch(new RegExp(`^${CSRF}=`))
  })

  it("locals.auth() resolves to the session once signed in", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    const browser = await signedInBrowser(handle)
    const event = createEvent(browser.request(`${ORIGIN}/dashboard`))
    await runHandle(handle, event)
    const session = await event.locals.auth()
    expect(session?.user).toMatchObject({ name: "Ada", email: "ada@example.com" })
    expect(typeof session?.expires).toBe("string")
    // A fresh session is not re-issued on every read.
    expect(event.cookies.set_).toEqual([])
  })

  it("locals.auth() decrypts the cookie once per request, however often it is called", async () => {
    const config = testConfig()
    const { handle } = SvelteKitAuth(config)
    const browser = await signedInBrowser(handle)
    config.decodes.count = 0

    const event = createEvent(browser.request(`${ORIGIN}/dashboard`))
    await runHandle(handle, event)
    const results = await Promise.all([
      event.locals.auth(),
      event.locals.auth(),
      event.locals.auth(),
    ])
    expect(await event.locals.auth()).toBe(results[0])
    expect(config.decodes.count).toBe(1)

    const next = createEvent(browser.request(`${ORIGIN}/other`))
    await runHandle(handle, next)
    expect(config.decodes.count).toBe(1) // nothing is read until asked for
    await next.locals.auth()
    expect(config.decodes.count).toBe(2)
  })

  it("locals.auth() does not go through an internal HTTP request", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    const browser = await signedInBrowser(handle)
    const fetchSpy = vi.spyOn(globalThis, "fetch")
    const event = createEvent(browser.request(`${ORIGIN}/dashboard`))
    const { resolved } = await runHandle(handle, event)
    expect(resolved).toBe(true)
    expect(await event.locals.auth()).not.toBeNull()
    expect(fetchSpy).not.toHaveBeenCalled()
  })

  it("locals.auth() clears a session cookie it cannot decrypt, with core's attributes", async () => {
    const config = testConfig({ debug: true })
    const { handle } = SvelteKitAuth(config)
    // Plain http on a LAN address: SvelteKit's own default would make the cookie Secure.
    const event = createEvent(
      new Request("http://192.168.1.10:5173/", { headers: { cookie: `${SESSION}=not-a-token` } }),
    )
    await runHandle(handle, event)
    expect(await event.locals.auth()).toBeNull()
    const cleared = event.cookies.latest(SESSION)
    expect(cleared?.value).toBe("")
    expect(cleared?.options).toMatchObject({
      maxAge: 0,
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: false,
    })
    // The client's bad cookie: a debug-level refusal, not a server error.
    expect(config.loggedErrors).toEqual([])
    expect(config.loggedRefusals.map((e) => e.name)).toEqual(["JWTSessionError"])
  })

  it("locals.auth() reads the __Secure- cookie when SvelteKit's URL is https (a TLS proxy the adapter trusts)", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    // adapter-node with PROTOCOL_HEADER/HOST_HEADER: event.url is already https://app.example;
    // the proxy headers are still on the request, and the integration does not read them again.
    const https = { "x-forwarded-proto": "https", "x-forwarded-host": "app.example" }
    const browser = new Browser()
    const csrf = await runHandle(
      handle,
      createEvent(browser.request("https://app.example/auth/csrf", { headers: https })),
    )
    browser.receiveResponse(csrf.response)
    const { csrfToken } = await csrf.response.json()
    const signIn = await runHandle(
      handle,
      createEvent(
        browser.request("https://app.example/auth/callback/credentials", {
          method: "POST",
          headers: {
            ...https,
            "content-type": "application/x-www-form-urlencoded",
            origin: "https://app.example",
          },
          body: new URLSearchParams({ username: "ada", password: "lovelace", csrfToken }),
        }),
      ),
    )
    browser.receiveResponse(signIn.response)
    expect([...browser.cookies.keys()]).toContain(`__Secure-${SESSION}`)

    const behindProxy = createEvent(browser.request("https://app.example/", { headers: https }))
    await runHandle(handle, behindProxy)
    expect((await behindProxy.locals.auth())?.user?.name).toBe("Ada")
  })

  it("takes AUTH_SECRET and AUTH_TRUST_HOST from $env/dynamic/private, filled in once as Auth.js does", async () => {
    const env: Record<string, string | undefined> = {
      NODE_ENV: "production",
      AUTH_SECRET: SECRET,
      AUTH_TRUST_HOST: "true",
    }
    useKitRuntime(env)
    const { secret, trustHost, ...rest } = testConfig()
    const { handle } = SvelteKitAuth(rest)
    const ok = await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/csrf`)))
    expect(ok.response.status).toBe(200)

    // The values were filled into the configuration on first use: a later change is not picked up.
    env.AUTH_TRUST_HOST = "false"
    const again = await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/csrf`)))
    expect(again.response.status).toBe(200)
  })

  it("lazy configuration: called with the event, at most once per request", async () => {
    const config = testConfig()
    const factory = vi.fn(async (_event: unknown) => config)
    const { handle } = SvelteKitAuth(factory)
    const browser = await signedInBrowser(handle)
    factory.mockClear()

    const event = createEvent(browser.request(`${ORIGIN}/dashboard`))
    await runHandle(handle, event)
    await event.locals.auth()
    expect(factory).toHaveBeenCalledTimes(1)
    expect(factory.mock.calls[0]![0]).toBe(event)
    expect((await event.locals.auth())?.user?.name).toBe("Ada")
  })

  it("does nothing at build/prerender time: no config, no env, locals.auth() is null", async () => {
    const factory = vi.fn(async () => testConfig())
    const env = new Proxy(
      {},
      {
        get: () => {
          throw new Error("$env/dynamic/private read while prerendering")
        },
      },
    )
    useKitRuntime(env, true)
    const { handle } = SvelteKitAuth(factory)
    const event = createEvent(new Request(`${ORIGIN}/auth/csrf`))
    const { resolved } = await runHandle(handle, event)
    expect(resolved).toBe(true)
    expect(await event.locals.auth()).toBeNull()
    expect(factory).not.toHaveBeenCalled()
  })

  it("keeps a locals.auth() set earlier in the chain", async () => {
    const { handle } = SvelteKitAuth(testConfig())
    const event = createEvent(new Request(`${ORIGIN}/`))
    const earlier = async () => ({ expires: "never" })
    event.locals.auth = earlier
    await runHandle(handle, event)
    expect(event.locals.auth).toBe(earlier)
  })

  it("a broken configuration fails loudly in locals.auth()", async () => {
    const { handle } = SvelteKitAuth(testConfig({ secret: "short" }))
    const event = createEvent(new Request(`${ORIGIN}/`))
    await runHandle(handle, event)
    await expect(event.locals.auth()).rejects.toMatchObject({ type: "InvalidSecret" })
  })
})
