/**
 * Issue 6 as an outside tester reads it (the issue text, the specification's framework surface
 * and docs/sveltekit.md; not the sources): the built `@tessera/sveltekit` package driven with
 * real `Request`s through `handle` and the form actions, `locals.auth()`, a real OpenID provider
 * for `authorizationParams-<name>`, and the built `SignIn` component's form submitted as a browser
 * with JavaScript off would.
 */
import { fileURLToPath } from "node:url"
import { isRedirect } from "@sveltejs/kit"
import { render } from "svelte/server"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest"
import * as kit from "@tessera/sveltekit"
import { CredentialsSignin, SvelteKitAuth, setKitRuntime } from "@tessera/sveltekit"
import * as client from "@tessera/sveltekit/client"
import * as webauthn from "@tessera/sveltekit/webauthn"
import Credentials from "@tessera/core/providers/credentials"
import {
  MemoryAdapter,
  localOidcProvider,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { Browser, createEvent, formRequest, runHandle, type TestEvent } from "../helpers/kit.js"
import { disposeCompiled, loadComponent } from "../helpers/svelte.js"

const ORIGIN = "http://localhost:5173"
const SECRET = "an-outside-test-secret-long-enough-0123456789"
const SESSION = "tessera.session-token"

const passwords = Credentials({
  credentials: { username: {}, password: { type: "password" } },
  authorize: ({ username, password }) =>
    username === "ada" && password === "lovelace"
      ? { id: "1", name: "Ada", email: "ada@example.com" }
      : null,
})

const errors: unknown[] = []
const logger = { error: (error: Error) => void errors.push(error) }

beforeEach(() => setKitRuntime(() => ({ building: false, env: { AUTH_SECRET: SECRET } })))
afterEach(() => {
  setKitRuntime()
  expect(errors.splice(0)).toEqual([])
})

/** Runs a form action; returns the redirect it threw, or what it threw otherwise. */
async function outcome(action: (event: TestEvent) => unknown, event: TestEvent) {
  try {
    await action(event)
  } catch (thrown) {
    if (isRedirect(thrown)) return { redirect: thrown }
    return { thrown }
  }
  return {}
}

async function signedIn(auth: ReturnType<typeof SvelteKitAuth>) {
  const browser = new Browser()
  const event = createEvent(
    formRequest(`${ORIGIN}/signin`, {
      providerId: "credentials",
      username: "ada",
      password: "lovelace",
      redirectTo: "/dashboard",
    }),
  )
  const { redirect } = await outcome(auth.signIn, event)
  expect(redirect?.status).toBe(303)
  expect(new URL(redirect!.location, ORIGIN).href).toBe(`${ORIGIN}/dashboard`)
  browser.receiveEvent(event)
  expect(browser.cookies.get(SESSION)).toBeTruthy()
  return browser
}

describe("SvelteKitAuth", () => {
  test("returns { handle, signIn, signOut }; the package re-exports the errors", () => {
    const auth = SvelteKitAuth({ providers: [passwords], trustHost: true, logger })
    expect(Object.keys(auth).sort()).toEqual(["handle", "signIn", "signOut"])
    for (const value of Object.values(auth)) expect(typeof value).toBe("function")
    expect(new kit.CredentialsSignin()).toBeInstanceOf(kit.AuthError)
    expect(webauthn.signIn).toBe(client.signIn)
    expect(typeof client.signOut).toBe("function")
  })

  test("handle answers the auth routes under /auth (AUTH_SECRET from the environment) and passes the rest on", async () => {
    const { handle } = SvelteKitAuth({ providers: [passwords], trustHost: true, logger })
    const providers = await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/providers`)))
    expect(providers.resolved).toBe(false)
    expect(providers.response.status).toBe(200)
    expect(await providers.response.json()).toMatchObject({
      credentials: { id: "credentials", type: "credentials" },
    })

    for (const path of ["/", "/api/auth/session", "/authors"]) {
      const event = createEvent(new Request(`${ORIGIN}${path}`))
      const page = await runHandle(handle, event)
      expect(page.resolved).toBe(true)
      expect(await (event.locals as App.Locals).auth()).toBeFalsy()
    }
  })

  test("the lazy form resolves the configuration per request, from the event", async () => {
    const seen: string[] = []
    const { handle } = SvelteKitAuth(async (event) => {
      seen.push(event.url.pathname)
      return { providers: [passwords], trustHost: true, logger }
    })
    await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/csrf`)))
    const event = createEvent(new Request(`${ORIGIN}/page`))
    await runHandle(handle, event)
    await (event.locals as App.Locals).auth()
    expect(seen).toContain("/auth/csrf")
    expect(seen).toContain("/page")
  })

  test("signIn: credentials sign-in, 303 to redirectTo; locals.auth() has the session, cached per request; signOut ends it", async () => {
    const auth = SvelteKitAuth({ providers: [passwords], trustHost: true, logger })
    const browser = await signedIn(auth)

    const event = createEvent(browser.request(`${ORIGIN}/dashboard`))
    await runHandle(auth.handle, event)
    const locals = event.locals as App.Locals
    const first = await locals.auth()
    expect(first?.user).toMatchObject({ name: "Ada", email: "ada@example.com" })
    expect(typeof first?.expires).toBe("string")
    expect(await locals.auth()).toBe(first)

    const out = createEvent(browser.request(`${ORIGIN}/signout`, formInit({ redirectTo: "/bye" })))
    const { redirect } = await outcome(auth.signOut, out)
    expect(redirect?.status).toBe(303)
    expect(new URL(redirect!.location, ORIGIN).href).toBe(`${ORIGIN}/bye`)
    browser.receiveEvent(out)
    expect(browser.cookies.get(SESSION)).toBeUndefined()
    const after = createEvent(browser.request(`${ORIGIN}/dashboard`))
    await runHandle(auth.handle, after)
    expect(await (after.locals as App.Locals).auth()).toBeFalsy()
  })

  test("a credentials failure inside the form action is thrown to the caller with its code", async () => {
    const auth = SvelteKitAuth({ providers: [passwords], trustHost: true, logger })
    const event = createEvent(
      formRequest(`${ORIGIN}/signin`, {
        providerId: "credentials",
        username: "ada",
        password: "wrong",
      }),
    )
    const { thrown, redirect } = await outcome(auth.signIn, event)
    expect(redirect).toBeUndefined()
    expect(thrown).toBeInstanceOf(CredentialsSignin)
    expect((thrown as CredentialsSignin).code).toBe("credentials")
    expect(event.cookies.get(SESSION)).toBeUndefined()
  })

  test("redirectTo is kept on the app's origin", async () => {
    const auth = SvelteKitAuth({ providers: [passwords], trustHost: true, logger })
    const event = createEvent(
      formRequest(`${ORIGIN}/signin`, {
        providerId: "credentials",
        username: "ada",
        password: "lovelace",
        redirectTo: "https://evil.example/steal",
      }),
    )
    const { redirect } = await outcome(auth.signIn, event)
    expect(redirect?.status).toBe(303)
    expect(new URL(redirect!.location, ORIGIN).origin).toBe(ORIGIN)
  })
})

describe("edges of the form actions and the hook", () => {
  test("signIn without a provider: 303 to the sign-in page", async () => {
    const auth = SvelteKitAuth({ providers: [passwords], trustHost: true, logger })
    const { redirect } = await outcome(
      auth.signIn,
      createEvent(formRequest(`${ORIGIN}/signin`, {})),
    )
    expect(redirect?.status).toBe(303)
    expect(new URL(redirect!.location, ORIGIN).pathname).toBe("/auth/signin")
  })

  test("a cross-site submission of the form actions is refused (403), no cookie set", async () => {
    const auth = SvelteKitAuth({ providers: [passwords], trustHost: true, logger })
    const event = createEvent(
      formRequest(
        `${ORIGIN}/signin`,
        { providerId: "credentials", username: "ada", password: "lovelace" },
        { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      ),
    )
    const result = await outcome(auth.signIn, event)
    expect(result.redirect).toBeUndefined()
    expect((result.thrown as { status?: number }).status).toBe(403)
    expect(event.cookies.get(SESSION)).toBeUndefined()
  })

  test("while prerendering nothing runs: pages resolve, locals.auth() is empty, no secret needed", async () => {
    setKitRuntime(() => ({ building: true, env: {} }))
    const { handle } = SvelteKitAuth({ providers: [passwords], logger })
    const event = createEvent(new Request(`${ORIGIN}/about`))
    const page = await runHandle(handle, event)
    expect(page.resolved).toBe(true)
    expect(await (event.locals as App.Locals).auth()).toBeFalsy()
  })

  test("database sessions: locals.auth() reads the session through the adapter", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser!({
      email: "ada@example.com",
      name: "Ada",
      emailVerified: null,
    } as never)
    const credentials = Credentials({
      credentials: { password: { type: "password" } },
      authorize: ({ password }) => (password === "lovelace" ? user : null),
    })
    const auth = SvelteKitAuth({
      providers: [credentials],
      adapter,
      trustHost: true,
      logger,
    })
    const login = createEvent(
      formRequest(`${ORIGIN}/signin`, { providerId: "credentials", password: "lovelace" }),
    )
    expect((await outcome(auth.signIn, login)).redirect?.status).toBe(303)
    const browser = new Browser()
    browser.receiveEvent(login)
    expect(browser.cookies.get(SESSION)).toMatch(/^[0-9a-f]{64}$/)
    expect(adapter.store.sessions.size).toBe(1)
    const event = createEvent(browser.request(`${ORIGIN}/account`))
    await runHandle(auth.handle, event)
    // As in Auth.js, the default session names the user without its id.
    expect((await (event.locals as App.Locals).auth())?.user).toMatchObject({
      name: "Ada",
      email: "ada@example.com",
    })
  })
})

describe("environment defaults from $env/dynamic/private", () => {
  test("AUTH_TRUST_HOST, AUTH_URL and a provider's AUTH_<ID>_ID/_SECRET are read at request time", async () => {
    const { default: GitHub } = await import("@tessera/sveltekit/providers/github")
    setKitRuntime(() => ({
      building: false,
      env: {
        AUTH_SECRET: SECRET,
        AUTH_TRUST_HOST: "true",
        AUTH_URL: `${ORIGIN}/auth`,
        AUTH_GITHUB_ID: "env-client-id",
        AUTH_GITHUB_SECRET: "env-client-secret",
      },
    }))
    const auth = SvelteKitAuth({ providers: [GitHub], logger })
    const { redirect } = await outcome(
      auth.signIn,
      createEvent(formRequest(`${ORIGIN}/signin`, { providerId: "github" })),
    )
    expect(redirect?.status).toBe(303)
    const location = new URL(redirect!.location)
    expect(location.host).toBe("github.com")
    expect(location.searchParams.get("client_id")).toBe("env-client-id")
    expect(location.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/github`)
  })
})

describe("OAuth through the form action", () => {
  let idp: OidcProviderServer
  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/local`] })
  })
  afterAll(() => idp?.stop())

  test("authorizationParams-<name> reach the authorization URL", async () => {
    const auth = SvelteKitAuth({
      providers: [localOidcProvider(idp)],
      trustHost: true,
      logger,
    })
    const event = createEvent(
      formRequest(`${ORIGIN}/signin`, {
        providerId: "local",
        "authorizationParams-prompt": "login",
        "authorizationParams-login_hint": "ada@example.test",
      }),
    )
    const { redirect } = await outcome(auth.signIn, event)
    expect(redirect?.status).toBe(303)
    const location = new URL(redirect!.location)
    expect(location.origin).toBe(idp.issuer)
    expect(location.searchParams.get("prompt")).toBe("login")
    expect(location.searchParams.get("login_hint")).toBe("ada@example.test")
    expect(location.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/local`)
  })
})

describe("the built SignIn component, submitted with JavaScript off", () => {
  let SignIn: Awaited<ReturnType<typeof loadComponent>>
  let SignOut: Awaited<ReturnType<typeof loadComponent>>
  const built = (name: string) =>
    fileURLToPath(new URL(`../../dist/components/${name}.svelte`, import.meta.url))
  beforeAll(async () => {
    SignIn = await loadComponent(built("SignIn"))
    SignOut = await loadComponent(built("SignOut"))
  })

  /** The form's action and hidden fields, as a browser would submit them. */
  function formOf(markup: string) {
    const form = /<form[^>]*>/.exec(markup)![0]
    expect(form).toMatch(/method="POST"/i)
    const fields: Record<string, string> = {}
    for (const [tag] of markup.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
      const name = /name="([^"]*)"/.exec(tag)![1]!
      fields[name] = (/value="([^"]*)"/.exec(tag)?.[1] ?? "").replaceAll("&amp;", "&")
    }
    return { action: /action="([^"]*)"/.exec(form)![1]!, fields }
  }
  afterAll(disposeCompiled)

  test("its form's fields, with the credentials typed in, sign in through the signIn action", async () => {
    const markup = render(SignIn, {
      props: { provider: "credentials", options: { redirectTo: "/after" } },
    }).body
    const { action, fields } = formOf(markup)
    expect(fields).toMatchObject({ providerId: "credentials", redirectTo: "/after" })

    const auth = SvelteKitAuth({ providers: [passwords], trustHost: true, logger })
    const event = createEvent(
      formRequest(new URL(action, `${ORIGIN}/`).href, {
        ...fields,
        username: "ada",
        password: "lovelace",
      }),
    )
    const { redirect } = await outcome(auth.signIn, event)
    expect(redirect?.status).toBe(303)
    expect(new URL(redirect!.location, ORIGIN).href).toBe(`${ORIGIN}/after`)
    expect(event.cookies.get(SESSION)).toBeTruthy()

    // And the SignOut component's form ends that session through the signOut action.
    const browser = new Browser()
    browser.receiveEvent(event)
    const out = formOf(render(SignOut, { props: { options: { redirectTo: "/bye" } } }).body)
    expect(out.fields).toMatchObject({ redirectTo: "/bye" })
    const signOutEvent = createEvent(
      browser.request(new URL(out.action, `${ORIGIN}/`).href, formInit(out.fields)),
    )
    const ended = await outcome(auth.signOut, signOutEvent)
    expect(ended.redirect?.status).toBe(303)
    expect(new URL(ended.redirect!.location, ORIGIN).href).toBe(`${ORIGIN}/bye`)
    browser.receiveEvent(signOutEvent)
    expect(browser.cookies.get(SESSION)).toBeUndefined()
  })
})

function formInit(fields: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    body: new URLSearchParams(fields),
  }
}

describe("the client module, in a browser-like global scope talking to handle", () => {
  /** `window` and `fetch` as a page at ORIGIN has them; requests go through `handle`. */
  function page(handle: ReturnType<typeof SvelteKitAuth>["handle"]) {
    const browser = new Browser()
    const posted: string[] = []
    const location = { href: `${ORIGIN}/signin` }
    const fetchThroughHandle = async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), location.href)
      const headers = new Headers(init.headers)
      headers.set("origin", ORIGIN)
      if (init.method === "POST") posted.push(url.pathname)
      const request = browser.request(url.href, { ...init, headers })
      const { response } = await runHandle(handle, createEvent(request))
      browser.receiveResponse(response)
      return response
    }
    return { browser, posted, location, fetchThroughHandle }
  }

  test("signIn(credentials, { redirect: false }) answers the result; a wrong password is a result, not a throw; signOut clears", async () => {
    const auth = SvelteKitAuth({ providers: [passwords], trustHost: true, logger })
    const tab = page(auth.handle)
    const saved = { window: globalThis.window, fetch: globalThis.fetch }
    Object.assign(globalThis, {
      window: { location: tab.location },
      fetch: tab.fetchThroughHandle,
    })
    try {
      const wrong = await client.signIn("credentials", {
        username: "ada",
        password: "nope",
        redirect: false,
      })
      expect(wrong).toMatchObject({ ok: false, error: "CredentialsSignin", code: "credentials" })
      expect(tab.browser.cookies.get(SESSION)).toBeUndefined()

      const right = await client.signIn("credentials", {
        username: "ada",
        password: "lovelace",
        redirectTo: "/home",
        redirect: false,
      })
      expect(right).toMatchObject({ ok: true, error: undefined })
      expect(new URL(right!.url!).href).toBe(`${ORIGIN}/home`)
      expect(tab.browser.cookies.get(SESSION)).toBeTruthy()
      expect(tab.posted).toEqual(["/auth/callback/credentials", "/auth/callback/credentials"])

      await client.signOut({ redirectTo: "/bye" })
      expect(tab.location.href).toBe(`${ORIGIN}/bye`)
      expect(tab.browser.cookies.get(SESSION)).toBeUndefined()
    } finally {
      globalThis.fetch = saved.fetch
      if (saved.window === undefined) Reflect.deleteProperty(globalThis, "window")
      else globalThis.window = saved.window
    }
  })
})
