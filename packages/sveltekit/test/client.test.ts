import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

vi.mock("@simplewebauthn/browser", () => ({
  startRegistration: vi.fn(async () => ({
    id: "new-credential",
    response: { attestationObject: "..." },
  })),
  startAuthentication: vi.fn(async () => ({ id: "credential", response: { signature: "..." } })),
}))

import { startAuthentication, startRegistration } from "@simplewebauthn/browser"
import { getCsrfToken, listSessions, revokeSession, signIn, signOut } from "../src/client.js"
import { setKitRuntime } from "../src/env.js"
import { SvelteKitAuth } from "../src/index.js"
import { ORIGIN, testConfig, useKitRuntime, adapterWithAda } from "./helpers/config.js"
import { Browser, createEvent, runHandle } from "./helpers/kit.js"

const PAGE = `${ORIGIN}/account`

/** A stand-in for the browser's `window.location`. */
function fakeWindow() {
  const location = { href: PAGE, reload: vi.fn() }
  vi.stubGlobal("window", { location })
  return location
}

/** `fetch` answered by the real `handle`, with a browser's cookie jar and Origin header. */
function serveWith(handle: ReturnType<typeof SvelteKitAuth>["handle"]) {
  const browser = new Browser()
  const calls: Request[] = []
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if ((init.method ?? "GET").toUpperCase() === "POST") headers.set("origin", ORIGIN)
    const request = browser.request(new URL(input, PAGE).href, { ...init, headers })
    calls.push(request.clone())
    const { response } = await runHandle(handle, createEvent(request))
    browser.receiveResponse(response)
    return response
  })
  vi.stubGlobal("fetch", fetchMock)
  return { browser, calls, fetchMock }
}

/** `fetch` answering from a table of `METHOD path` -> JSON body. */
function answer(routes: Record<string, unknown>) {
  const calls: { method: string; url: URL; body: URLSearchParams; headers: Headers }[] = []
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = (init.method ?? "GET").toUpperCase()
      const url = new URL(input, PAGE)
      calls.push({
        method,
        url,
        body: new URLSearchParams(init.body as URLSearchParams | undefined),
        headers: new Headers(init.headers),
      })
      const key = `${method} ${url.pathname}`
      if (!(key in routes))
        return new Response(JSON.stringify({ error: "UnknownAction" }), { status: 404 })
      return Response.json(routes[key])
    }),
  )
  return calls
}

const providers = {
  credentials: { id: "credentials", name: "Credentials", type: "credentials" },
  github: { id: "github", name: "GitHub", type: "oauth" },
  passkey: { id: "passkey", name: "Passkey", type: "webauthn" },
}

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => {
  setKitRuntime()
  vi.unstubAllGlobals()
  vi.clearAllMocks()
})

describe("client signIn against the real handle", () => {
  it("credentials with redirect: false: CSRF token fetched, fields posted, result returned, session cookie set", async () => {
    const location = fakeWindow()
    const { handle } = SvelteKitAuth(testConfig())
    const { browser, calls } = serveWith(handle)
    const result = await signIn("credentials", {
      username: "ada",
      password: "lovelace",
      redirect: false,
      redirectTo: "/dashboard",
    })
    expect(result).toEqual({
      ok: true,
      status: 200,
      error: undefined,
      code: undefined,
      url: `${ORIGIN}/dashboard`,
    })
    expect(location.href).toBe(PAGE) // no navigation
    const post = calls.find((r) => r.method === "POST")!
    expect(new URL(post.url).pathname).toBe("/auth/callback/credentials")
    expect(post.headers.get("x-auth-return-redirect")).toBe("1")
    const body = new URLSearchParams(await post.text())
    expect(body.get("username")).toBe("ada")
    expect(body.get("csrfToken")).toMatch(/^[0-9a-f]{64}$/)
    expect(body.has("redirect")).toBe(false)
    expect([...browser.cookies.keys()]).toContain("tessera.session-token")
  })

  it("credentials failure with redirect: false: error and code, no session", async () => {
    fakeWindow()
    const { handle } = SvelteKitAuth(testConfig())
    const { browser } = serveWith(handle)
    const result = await signIn("credentials", {
      username: "mallory",
      password: "x",
      redirect: false,
    })
    expect(result).toMatchObject({
      ok: false,
      error: "CredentialsSignin",
      code: "invalid_login",
      url: null,
    })
    expect([...browser.cookies.keys()]).not.toContain("tessera.session-token")
  })

  it("credentials with the default redirect navigates to the callback URL (the current page)", async () => {
    const location = fakeWindow()
    const { handle } = SvelteKitAuth(testConfig())
    serveWith(handle)
    expect(await signIn("credentials", { username: "ada", password: "lovelace" })).toBeUndefined()
    expect(location.href).toBe(PAGE)
  })

  it("signOut posts the CSRF token, clears the session and follows the redirect", async () => {
    const location = fakeWindow()
    const { handle } = SvelteKitAuth(testConfig())
    const { browser } = serveWith(handle)
    await signIn("credentials", { username: "ada", password: "lovelace", redirect: false })
    expect(await signOut({ redirect: false, redirectTo: "/bye" })).toEqual({
      ok: true,
      status: 200,
      error: undefined,
      url: `${ORIGIN}/bye`,
    })
    expect([...browser.cookies.keys()]).not.toContain("tessera.session-token")
    await signOut()
    expect(location.href).toBe(PAGE)
  })

  it("credentials failure with redirect: false: Auth.js's SignInResponse, with ok false", async () => {
    fakeWindow()
    const { handle } = SvelteKitAuth(testConfig())
    serveWith(handle)
    // Auth.js answers { error, code, status: 200, ok: true, url: null } here (res.ok of a 200).
    expect(
      await signIn("credentials", { username: "mallory", password: "x", redirect: false }),
    ).toEqual({
      error: "CredentialsSignin",
      code: "invalid_login",
      status: 200,
      ok: false,
      url: null,
    })
  })

  it("signOut: redirectTo, else the deprecated callbackUrl, else the current page, as Auth.js's", async () => {
    const location = fakeWindow()
    const { handle } = SvelteKitAuth(testConfig())
    const { calls } = serveWith(handle)
    const postedCallbackUrl = async () =>
      new URLSearchParams(await calls.findLast((r) => r.method === "POST")!.text()).get(
        "callbackUrl",
      )
    const signedOut = (url: string) => ({ ok: true, status: 200, error: undefined, url })
    await signIn("credentials", { username: "ada", password: "lovelace", redirect: false })
    expect(await signOut({ callbackUrl: "/old", redirect: false })).toEqual(
      signedOut(`${ORIGIN}/old`),
    )
    expect(await postedCallbackUrl()).toBe("/old")
    expect(await signOut({ redirectTo: "/new", callbackUrl: "/old", redirect: false })).toEqual(
      signedOut(`${ORIGIN}/new`),
    )
    expect(await postedCallbackUrl()).toBe("/new")
    expect(await signOut({ redirect: false })).toEqual(signedOut(PAGE))
    expect(await postedCallbackUrl()).toBe(PAGE)
    // redirect defaults to true: the browser goes where the server said.
    expect(await signOut({ callbackUrl: "/old" })).toBeUndefined()
    expect(location.href).toBe(`${ORIGIN}/old`)
  })

  it("getCsrfToken returns the token of the csrf action", async () => {
    fakeWindow()
    const { handle } = SvelteKitAuth(testConfig())
    serveWith(handle)
    expect(await getCsrfToken()).toMatch(/^[0-9a-f]{64}$/)
  })
})

describe("client sessions: listSessions, revokeSession, signOut({ scope })", () => {
  /** One app with session records; `signInOn()` signs "ada" in on a new device through the client. */
  function appWithRecords(strategy: "jwt" | "database" = "jwt") {
    const adapter = adapterWithAda()
    // JWT sessions consult their record on every check here (`revalidateAge: 0`; 60 s by default).
    const { handle } = SvelteKitAuth(
      testConfig({ adapter, session: { strategy, revalidateAge: 0 } }),
    )
    async function signInOn() {
      fakeWindow()
      const device = serveWith(handle)
      const result = await signIn("credentials", {
        username: "ada",
        password: "lovelace",
        redirect: false,
      })
      expect(result?.ok).toBe(true)
      return device
    }
    /** Makes `device` the browser the client's `fetch` runs in. */
    const use = (device: ReturnType<typeof serveWith>) => vi.stubGlobal("fetch", device.fetchMock)
    async function sessionOf(device: ReturnType<typeof serveWith>) {
      const { response } = await runHandle(
        handle,
        createEvent(device.browser.request(`${ORIGIN}/auth/session`)),
      )
      return response.json()
    }
    return { signInOn, use, sessionOf }
  }

  it.each(["jwt", "database"] as const)(
    "%s sessions: lists both devices, ends the other one by id, this one stays",
    async (strategy) => {
      const { signInOn, use, sessionOf } = appWithRecords(strategy)
      const laptop = await signInOn()
      const phone = await signInOn()
      const listed = await listSessions()
      expect(listed).toMatchObject({ ok: true, status: 200, error: undefined })
      expect(listed.sessions).toHaveLength(2)
      expect(listed.sessions.filter((entry) => entry.current)).toHaveLength(1)
      const other = listed.sessions.find((entry) => !entry.current)!

      const revoked = await revokeSession(other.id)
      expect(revoked).toEqual({ ok: true, status: 200, error: undefined, current: false })
      expect(await sessionOf(laptop)).toBeNull()
      expect(await sessionOf(phone)).toMatchObject({ user: { email: "ada@example.com" } })
      expect((await listSessions()).sessions).toHaveLength(1)

      // Its own session: the browser is signed out.
      use(phone)
      const [own] = (await listSessions()).sessions
      expect(await revokeSession(own!.id)).toMatchObject({ ok: true, current: true })
      expect(await sessionOf(phone)).toBeNull()
    },
  )

  it("revokeSession: an id that is not one of yours is NotFound; signed out, SessionRequired", async () => {
    const { signInOn } = appWithRecords()
    await signInOn()
    expect(await revokeSession("not-a-session-of-mine")).toEqual({
      ok: false,
      status: 404,
      error: "NotFound",
      current: false,
    })
    await signOut({ redirect: false })
    expect(await listSessions()).toEqual({
      ok: false,
      status: 401,
      error: "SessionRequired",
      sessions: [],
    })
    expect(await revokeSession("any")).toMatchObject({ ok: false, status: 401 })
  })

  it("signOut({ scope: 'others' }) ends every other device and keeps this one; 'all' ends them all", async () => {
    const { signInOn, use, sessionOf } = appWithRecords()
    const laptop = await signInOn()
    const tablet = await signInOn()
    const phone = await signInOn()
    expect(await signOut({ scope: "others", redirect: false })).toMatchObject({ ok: true })
    expect(await sessionOf(laptop)).toBeNull()
    expect(await sessionOf(tablet)).toBeNull()
    expect(await sessionOf(phone)).not.toBeNull()

    const desktop = await signInOn()
    use(phone)
    expect(await signOut({ scope: "all", redirect: false })).toMatchObject({ ok: true })
    expect(await sessionOf(phone)).toBeNull()
    expect(await sessionOf(desktop)).toBeNull()
  })

  it("without session records on the server: results say so, nothing is thrown", async () => {
    fakeWindow()
    const { handle } = SvelteKitAuth(testConfig())
    serveWith(handle)
    await signIn("credentials", { username: "ada", password: "lovelace", redirect: false })
    expect(await listSessions()).toMatchObject({ ok: false, status: 501, error: "MissingAdapter" })
    expect(await signOut({ scope: "others", redirect: false })).toMatchObject({
      ok: false,
      status: 501,
      error: "MissingAdapter",
    })
  })

  it("a server that cannot be reached is a ClientFetchError result", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("fetch failed")
      }),
    )
    expect(await listSessions()).toMatchObject({ ok: false, error: "ClientFetchError" })
    expect(await revokeSession("x")).toMatchObject({ ok: false, error: "ClientFetchError" })
  })
})

describe("client signIn", () => {
  it("without a provider opens the sign-in page, without any request", async () => {
    const location = fakeWindow()
    const calls = answer({})
    await signIn()
    expect(location.href).toBe(`${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(PAGE)}`)
    expect(calls).toHaveLength(0)
  })

  it("with an unknown provider opens the sign-in page", async () => {
    const location = fakeWindow()
    answer({ "GET /api/auth/providers": providers, "GET /api/auth/csrf": { csrfToken: "t" } })
    await signIn("nope", { redirectTo: "/x", basePath: "/api/auth/" })
    expect(location.href).toBe(`${ORIGIN}/api/auth/signin?callbackUrl=%2Fx`)
  })

  it("OAuth posts to signin/<id> with authorization parameters and always navigates to the provider", async () => {
    const location = fakeWindow()
    const calls = answer({
      "GET /auth/providers": providers,
      "GET /auth/csrf": { csrfToken: "token" },
      "POST /auth/signin/github": {
        url: "https://github.example/login/oauth/authorize?client_id=x",
      },
    })
    expect(await signIn("github", { redirect: false }, { prompt: "consent" })).toBeUndefined()
    const post = calls.find((c) => c.method === "POST")!
    expect(post.url.search).toBe("?prompt=consent")
    expect(Object.fromEntries(post.body)).toEqual({ csrfToken: "token", callbackUrl: PAGE })
    expect(location.href).toBe("https://github.example/login/oauth/authorize?client_id=x")
  })

  it("never navigates to a script URL it would fall back to when the server gives none", async () => {
    const location = fakeWindow()
    answer({
      "GET /auth/csrf": { csrfToken: "token" },
      "GET /auth/providers": providers,
      // Answers without a URL: the client falls back to redirectTo.
      "POST /auth/signout": {},
      "POST /auth/callback/credentials": {},
    })
    expect(await signOut({ redirectTo: "javascript:alert(document.cookie)" })).toMatchObject({
      ok: false,
      error: "InvalidCallbackUrl",
    })
    expect(await signIn("credentials", { redirectTo: "javascript:alert(1)" })).toMatchObject({
      ok: false,
      error: "InvalidCallbackUrl",
    })
    expect(location.href).toBe(PAGE)
  })

  it("a refusal with nowhere to go is returned, not followed to the callback URL", async () => {
    const location = fakeWindow()
    answer({ "GET /auth/csrf": { csrfToken: "token" }, "GET /auth/providers": providers })
    // No route answers the POSTs: 404 { error: "UnknownAction" } and no URL.
    expect(await signIn("credentials", { username: "ada" })).toEqual({
      ok: false,
      status: 404,
      error: "UnknownAction",
      code: undefined,
      url: null,
    })
    expect(await signOut()).toMatchObject({ ok: false, status: 404, error: "UnknownAction" })
    expect(location.href).toBe(PAGE)
  })

  it("reloads when only the fragment changes", async () => {
    const location = fakeWindow()
    answer({
      "GET /auth/providers": providers,
      "GET /auth/csrf": { csrfToken: "token" },
      "POST /auth/callback/credentials": { url: `${PAGE}#welcome` },
    })
    await signIn("credentials", { username: "ada" })
    expect(location.href).toBe(`${PAGE}#welcome`)
    expect(location.reload).toHaveBeenCalledTimes(1)
  })

  it("passkey registration: options, startRegistration, then the callback with action and data", async () => {
    fakeWindow()
    const registrationOptions = { challenge: "abc", rp: { name: "app" } }
    const calls = answer({
      "GET /auth/providers": providers,
      "GET /auth/csrf": { csrfToken: "token" },
      "GET /auth/webauthn-options/passkey": { action: "register", options: registrationOptions },
      "POST /auth/callback/passkey": { url: `${ORIGIN}/welcome` },
    })
    const result = await signIn("passkey", {
      action: "register",
      email: "ada@example.com",
      redirect: false,
    })
    expect(result).toMatchObject({ ok: true, url: `${ORIGIN}/welcome` })
    const options = calls.find((c) => c.url.pathname === "/auth/webauthn-options/passkey")!
    expect(Object.fromEntries(options.url.searchParams)).toEqual({
      action: "register",
      email: "ada@example.com",
    })
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: registrationOptions })
    expect(startAuthentication).not.toHaveBeenCalled()
    const post = calls.find((c) => c.method === "POST")!
    expect(post.headers.get("x-auth-return-redirect")).toBe("1")
    expect(post.body.get("action")).toBe("register")
    expect(JSON.parse(post.body.get("data")!)).toEqual({
      id: "new-credential",
      response: { attestationObject: "..." },
    })
    expect(post.body.get("csrfToken")).toBe("token")
  })

  it("passkey sign-in: the server's action decides, startAuthentication runs", async () => {
    const location = fakeWindow()
    const calls = answer({
      "GET /auth/providers": providers,
      "GET /auth/csrf": { csrfToken: "token" },
      "GET /auth/webauthn-options/passkey": {
        action: "authenticate",
        options: { challenge: "xyz" },
      },
      "POST /auth/callback/passkey": { url: `${ORIGIN}/home` },
    })
    await signIn("passkey")
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: "xyz" } })
    expect(calls.find((c) => c.method === "POST")!.body.get("action")).toBe("authenticate")
    expect(location.href).toBe(`${ORIGIN}/home`)
  })

  it("passkey options that fail are a result with the server's error, and nothing is posted", async () => {
    const location = fakeWindow()
    const calls = answer({
      "GET /auth/providers": providers,
      "GET /auth/csrf": { csrfToken: "token" },
    })
    expect(await signIn("passkey")).toEqual({
      ok: false,
      status: 404,
      error: "UnknownAction",
      code: undefined,
      url: null,
    })
    expect(calls.some((c) => c.method === "POST")).toBe(false)
    expect(location.href).toBe(PAGE)
  })

  it.each([
    ["NotAllowedError", "PasskeyCancelled"],
    ["AbortError", "PasskeyCancelled"],
    ["SecurityError", "PasskeyError"],
  ])(
    "a passkey dialog ending in %s is the result %s, with or without redirect",
    async (name, error) => {
      const location = fakeWindow()
      const calls = answer({
        "GET /auth/providers": providers,
        "GET /auth/csrf": { csrfToken: "token" },
        "GET /auth/webauthn-options/passkey": {
          action: "authenticate",
          options: { challenge: "x" },
        },
      })
      // As @simplewebauthn/browser throws it: its WebAuthnError, named after the browser's error.
      const thrown = Object.assign(
        new Error("The operation either timed out or was not allowed."),
        {
          name,
          cause: new DOMException("not allowed", name),
        },
      )
      vi.mocked(startAuthentication).mockRejectedValueOnce(thrown).mockRejectedValueOnce(thrown)
      for (const redirect of [true, false]) {
        expect(await signIn("passkey", { redirect })).toEqual({
          ok: false,
          status: 0,
          error,
          code: undefined,
          url: null,
        })
      }
      expect(calls.some((c) => c.method === "POST")).toBe(false)
      expect(location.href).toBe(PAGE)
    },
  )

  it("a server that cannot be reached is ClientFetchError; no CSRF token is MissingCSRF", async () => {
    const location = fakeWindow()
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("fetch failed")
      }),
    )
    expect(await signIn("credentials", { username: "ada", redirect: false })).toMatchObject({
      ok: false,
      status: 0,
      error: "ClientFetchError",
    })
    expect(await signOut()).toMatchObject({ ok: false, status: 0, error: "ClientFetchError" })

    answer({ "GET /auth/providers": providers, "GET /auth/csrf": { nothing: "here" } })
    expect(await signIn("credentials", { username: "ada" })).toMatchObject({
      ok: false,
      status: 200,
      error: "MissingCSRF",
    })
    expect(await signOut({ redirect: false })).toMatchObject({ ok: false, error: "MissingCSRF" })
    expect(location.href).toBe(PAGE)
  })
})

describe("@tessera/sveltekit/webauthn (the built package, as an app imports it)", () => {
  it("exports the passkey-aware signIn, as @auth/sveltekit/webauthn does", async () => {
    const webauthn = await import("@tessera/sveltekit/webauthn")
    expect(Object.keys(webauthn)).toEqual(["signIn"])
    expect(typeof webauthn.signIn).toBe("function")
  })
})
