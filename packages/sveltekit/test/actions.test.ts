import { isHttpError, isRedirect, type Redirect } from "@sveltejs/kit"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { CredentialsSignin, SvelteKitAuth } from "../src/index.js"
import { setKitRuntime } from "../src/env.js"
import Credentials from "@tessera/core/providers/credentials"
import {
  InvalidLogin,
  ORIGIN,
  testConfig,
  useKitRuntime,
  adapterWithAda,
} from "./helpers/config.js"
import { Browser, createEvent, formRequest, runHandle, type TestEvent } from "./helpers/kit.js"

const SESSION = "tessera.session-token"

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => setKitRuntime())

/** Runs a form action and returns the redirect it throws. */
async function redirectOf(
  action: (event: TestEvent) => unknown,
  event: TestEvent,
): Promise<Redirect> {
  try {
    await action(event)
  } catch (thrown) {
    if (isRedirect(thrown)) return thrown
    throw thrown
  }
  throw new Error("the action did not redirect")
}

/** What a browser submits from the /signin page. */
function signInForm(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return createEvent(formRequest(`${ORIGIN}/signin`, fields, headers))
}

describe("signIn form action", () => {
  it("signs in with credentials: session cookie set, 303 to redirectTo", async () => {
    const config = testConfig()
    const { signIn, handle } = SvelteKitAuth(config)
    const event = signInForm({
      providerId: "credentials",
      username: "ada",
      password: "lovelace",
      redirectTo: "/dashboard",
    })
    const redirect = await redirectOf(signIn, event)
    expect(redirect.status).toBe(303)
    expect(redirect.location).toBe(`${ORIGIN}/dashboard`)
    const cookie = event.cookies.latest(SESSION)
    expect(cookie?.value).toMatch(/^ey/)
    expect(cookie?.options).toMatchObject({
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: false,
    })
    expect(cookie?.options.maxAge).toBeGreaterThan(0)

    // The next request carries the cookie: locals.auth() has the user.
    const browser = new Browser()
    browser.receiveEvent(event)
    const next = createEvent(browser.request(`${ORIGIN}/dashboard`))
    await runHandle(handle, next)
    expect((await next.locals.auth())?.user).toMatchObject({
      name: "Ada",
      email: "ada@example.com",
    })
  })

  it("passes only the provider's own fields to authorize, with no CSRF token needed", async () => {
    const config = testConfig()
    const authorize = vi.fn(async () => ({ id: "7", name: "Grace" }))
    const { signIn } = SvelteKitAuth({
      ...config,
      providers: [Credentials({ credentials: {}, authorize })],
    })
    await redirectOf(
      signIn,
      signInForm({ providerId: "credentials", username: "grace", otp: "123456", redirectTo: "/" }),
    )
    expect(authorize).toHaveBeenCalledTimes(1)
    expect((authorize.mock.calls[0] as unknown[])[0]).toEqual({ username: "grace", otp: "123456" })
  })

  it("throws CredentialsSignin (code credentials) when authorize returns null, instead of redirecting", async () => {
    const config = testConfig({ debug: true })
    const { signIn } = SvelteKitAuth(config)
    const event = signInForm({ providerId: "credentials", username: "ada", password: "wrong" })
    const error = await Promise.resolve(signIn(event)).catch((e: unknown) => e)
    expect(isRedirect(error)).toBe(false)
    expect(error).toBeInstanceOf(CredentialsSignin)
    expect(error).toMatchObject({ type: "CredentialsSignin", code: "credentials" })
    expect(event.cookies.latest(SESSION)).toBeUndefined()
    // The full error is still logged on the server: at debug level, since the client caused it.
    expect(config.loggedRefusals).toContain(error)
    expect(config.loggedErrors).toEqual([])
  })

  it("throws the custom CredentialsSignin subclass with its own code", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    const error = await Promise.resolve(
      signIn(signInForm({ providerId: "credentials", username: "mallory", password: "x" })),
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidLogin)
    expect(error).toMatchObject({ code: "invalid_login" })
  })

  it("still throws when the browser asks for JSON redirects (X-Auth-Return-Redirect)", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    const event = signInForm(
      { providerId: "credentials", username: "nobody" },
      { "x-auth-return-redirect": "1" },
    )
    await expect(Promise.resolve(signIn(event))).rejects.toBeInstanceOf(CredentialsSignin)
  })

  it("goes back to the redirectTo query of the action or of the form's page, then that page, then /", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    const fields = { providerId: "credentials", username: "ada", password: "lovelace" }
    const fromQuery = createEvent(
      formRequest(`${ORIGIN}/signin?redirectTo=%2Fsettings`, fields, {
        referer: `${ORIGIN}/elsewhere`,
      }),
    )
    expect((await redirectOf(signIn, fromQuery)).location).toBe(`${ORIGIN}/settings`)
    const fromRefererQuery = signInForm(fields, {
      referer: `${ORIGIN}/signin?redirectTo=%2Fdashboard%3Ftab%3D2`,
    })
    expect((await redirectOf(signIn, fromRefererQuery)).location).toBe(`${ORIGIN}/dashboard?tab=2`)
    const fromReferer = signInForm(fields, { referer: `${ORIGIN}/articles/1` })
    expect((await redirectOf(signIn, fromReferer)).location).toBe(`${ORIGIN}/articles/1`)
    expect((await redirectOf(signIn, signInForm(fields))).location).toBe(`${ORIGIN}/`)
  })

  it("keeps the redirect on this origin", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    const event = signInForm({
      providerId: "credentials",
      username: "ada",
      password: "lovelace",
      redirectTo: "https://evil.example/steal",
    })
    expect(new URL((await redirectOf(signIn, event)).location).origin).toBe(ORIGIN)
  })

  it("sends authorizationParams-<name> fields as authorization parameters, not as provider fields", async () => {
    const config = testConfig()
    const { signIn } = SvelteKitAuth(config)
    await redirectOf(
      signIn,
      signInForm({
        providerId: "credentials",
        username: "ada",
        password: "lovelace",
        "authorizationParams-prompt": "login",
        "authorizationParams-login_hint": "ada@example.com",
      }),
    )
    const [request] = config.authorizeRequests
    const url = new URL(request!.url)
    expect(url.pathname).toBe("/auth/callback/credentials")
    expect(Object.fromEntries(url.searchParams)).toEqual({
      prompt: "login",
      login_hint: "ada@example.com",
    })
  })

  it("without a provider, or with an unknown one, redirects to the sign-in page", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    for (const providerId of ["", "nope"]) {
      const redirect = await redirectOf(signIn, signInForm({ providerId, redirectTo: "/after" }))
      expect(redirect.status).toBe(303)
      expect(redirect.location).toBe("/auth/signin?callbackUrl=%2Fafter")
    }
    const custom = SvelteKitAuth(testConfig({ pages: { signIn: "/login" } }))
    expect((await redirectOf(custom.signIn, signInForm({ redirectTo: "/x" }))).location).toBe(
      "/login?callbackUrl=%2Fx",
    )
  })

  it("with redirect=false returns { url } instead of redirecting", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    const event = signInForm({
      providerId: "credentials",
      username: "ada",
      password: "lovelace",
      redirectTo: "/d",
      redirect: "false",
    })
    expect(await signIn(event)).toEqual({ url: `${ORIGIN}/d` })
    expect(event.cookies.latest(SESSION)?.value).toMatch(/^ey/)
  })

  it("answers 400 to a body that is not a form", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    const event = createEvent(
      new Request(`${ORIGIN}/signin`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    )
    const error = await Promise.resolve(signIn(event)).catch((e: unknown) => e)
    expect(isHttpError(error, 400)).toBe(true)
  })

  it("validates the configuration once, not per request", async () => {
    const warnings: string[] = []
    // Core reads each option once per resolution of an object: the reads count resolutions.
    let themeReads = 0
    const config = Object.defineProperty(
      testConfig({
        debug: true,
        logger: { warn: (code) => void warnings.push(code), debug: () => {} },
      }),
      "theme",
      { enumerable: true, get: () => (themeReads++, undefined) },
    )
    const { signIn, handle } = SvelteKitAuth(config)
    const readsAfter: number[] = []
    for (let i = 0; i < 5; i++) {
      await redirectOf(
        signIn,
        signInForm({ providerId: "credentials", username: "ada", password: "lovelace" }),
      )
      const event = createEvent(new Request(`${ORIGIN}/`))
      await runHandle(handle, event)
      await event.locals.auth()
      await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/session`)))
      readsAfter.push(themeReads)
    }
    // Resolved for handle and locals.auth(), and once for the form actions' derived copy: never again.
    expect(readsAfter[0]).toBeGreaterThan(0)
    expect(readsAfter[4]).toBe(readsAfter[0])
    // The copy shares the app's configuration's warnings: each is said once for both.
    expect(warnings.filter((w) => w === "debug-enabled")).toHaveLength(1)
    expect(warnings.filter((w) => w === "csrf-disabled").length).toBeLessThanOrEqual(1)
  })

  it("uses the lazy configuration of the request", async () => {
    const config = testConfig()
    const factory = vi.fn(async () => config)
    const { signIn } = SvelteKitAuth(factory)
    const event = signInForm({
      providerId: "credentials",
      username: "ada",
      password: "lovelace",
      redirectTo: "/",
    })
    await redirectOf(signIn, event)
    expect(factory).toHaveBeenCalledWith(event)
  })
})

describe("signOut form action", () => {
  it("clears the session cookie and redirects (303) to redirectTo", async () => {
    const config = testConfig()
    const { signIn, signOut, handle } = SvelteKitAuth(config)
    const signedIn = signInForm({
      providerId: "credentials",
      username: "ada",
      password: "lovelace",
      redirectTo: "/",
    })
    await redirectOf(signIn, signedIn)
    const browser = new Browser()
    browser.receiveEvent(signedIn)

    const event = createEvent(
      browser.request(`${ORIGIN}/signout`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams({ redirectTo: "/goodbye" }),
      }),
    )
    const redirect = await redirectOf(signOut, event)
    expect(redirect.status).toBe(303)
    expect(redirect.location).toBe(`${ORIGIN}/goodbye`)
    expect(event.cookies.latest(SESSION)).toMatchObject({
      value: "",
      options: { maxAge: 0, path: "/" },
    })

    browser.receiveEvent(event)
    const after = createEvent(browser.request(`${ORIGIN}/`))
    await runHandle(handle, after)
    expect(await after.locals.auth()).toBeNull()
  })

  it("keeps the redirect on this origin, whether it comes from redirectTo or from a Referer", async () => {
    const { signOut, signIn } = SvelteKitAuth(testConfig())
    const fields = { providerId: "credentials", username: "ada", password: "lovelace" }
    for (const redirectTo of [
      "https://evil.example/x",
      "//evil.example/x",
      "/\\evil.example/x",
      "/\t/evil.example/x",
      "javascript:alert(1)",
    ]) {
      const out = createEvent(formRequest(`${ORIGIN}/signout`, { redirectTo }))
      expect(new URL((await redirectOf(signOut, out)).location, ORIGIN).origin, redirectTo).toBe(
        ORIGIN,
      )
      const into = signInForm({ ...fields, redirectTo })
      expect(new URL((await redirectOf(signIn, into)).location, ORIGIN).origin, redirectTo).toBe(
        ORIGIN,
      )
    }
    const fromOtherSite = createEvent(
      formRequest(
        `${ORIGIN}/signout`,
        {},
        { referer: "https://evil.example/?redirectTo=https://evil.example/" },
      ),
    )
    expect(new URL((await redirectOf(signOut, fromOtherSite)).location, ORIGIN).origin).toBe(ORIGIN)
    const signInFromOtherSite = signInForm(fields, {
      referer: "https://evil.example/?redirectTo=https://evil.example/",
    })
    expect(new URL((await redirectOf(signIn, signInFromOtherSite)).location, ORIGIN).origin).toBe(
      ORIGIN,
    )
  })

  it("scope=others ends the user's other sessions and keeps this one; a wrong scope is a 400", async () => {
    const adapter = adapterWithAda()
    const { signIn, signOut, handle } = SvelteKitAuth(
      testConfig({ adapter, session: { strategy: "database" } }),
    )
    const devices: Browser[] = []
    for (let i = 0; i < 2; i++) {
      const event = signInForm({ providerId: "credentials", username: "ada", password: "lovelace" })
      await redirectOf(signIn, event)
      const browser = new Browser()
      browser.receiveEvent(event)
      devices.push(browser)
    }
    const [laptop, phone] = devices as [Browser, Browser]
    const auth = async (browser: Browser) => {
      const event = createEvent(browser.request(`${ORIGIN}/`))
      await runHandle(handle, event)
      return event.locals.auth()
    }
    const submit = (scope: string) =>
      createEvent(
        phone.request(`${ORIGIN}/account`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
          body: new URLSearchParams({ scope, redirectTo: "/account" }),
        }),
      )

    await expect(signOut(submit("everyone"))).rejects.toSatisfy(
      (thrown) => isHttpError(thrown) && thrown.status === 400,
    )
    expect(await auth(laptop)).not.toBeNull()

    const event = submit("others")
    expect((await redirectOf(signOut, event)).location).toBe(`${ORIGIN}/account`)
    phone.receiveEvent(event)
    expect(await auth(laptop)).toBeNull()
    expect(await auth(phone)).toMatchObject({ user: { email: "ada@example.com" } })
  })

  it("returns to the Referer by default", async () => {
    const { signOut } = SvelteKitAuth(testConfig())
    const event = createEvent(
      formRequest(`${ORIGIN}/signout`, {}, { referer: `${ORIGIN}/profile` }),
    )
    expect((await redirectOf(signOut, event)).location).toBe(`${ORIGIN}/profile`)
  })
})
