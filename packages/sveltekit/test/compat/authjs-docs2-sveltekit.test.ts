/**
 * More of @auth/sveltekit as its docs (authjs.dev/reference/sveltekit,
 * getting-started/installation?framework=sveltekit) write it, imports changed to
 * `@tessera/sveltekit`: the environment from `$env/dynamic/private` (`AUTH_SECRET`,
 * `AUTH_TRUST_HOST`, `AUTH_GITHUB_ID`) with `providers: [GitHub]`; the `signIn` form action
 * for an OAuth provider with `authorizationParams-` fields; `basePath` with the hook, the
 * actions and `@tessera/sveltekit/client`; `event.locals.auth()` and Auth.js's deprecated
 * `event.locals.getSession()` in `+page.server.ts`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { SvelteKitAuth, setKitRuntime } from "@tessera/sveltekit"
import GitHub from "@tessera/sveltekit/providers/github"
import Credentials from "@tessera/sveltekit/providers/credentials"
import { signIn as clientSignIn, signOut as clientSignOut } from "../../src/client.js"
import { Browser, createEvent, formRequest, runHandle } from "../helpers/kit.js"

const ORIGIN = "http://localhost:5173"
const SECRET = "a-test-secret-that-is-long-enough-0123456789"

afterEach(() => {
  setKitRuntime()
  vi.unstubAllGlobals()
})

function ada() {
  return Credentials({
    credentials: { email: {}, password: {} },
    authorize: async (c) =>
      c.email === "ada@example.com" && c.password === "pw"
        ? { id: "1", name: "Ada", email: "ada@example.com" }
        : null,
  })
}

/** Runs a form action; answers what it threw (SvelteKit's redirect) and the event. */
async function runAction(action: (event: any) => unknown, request: Request) {
  const event = createEvent(request)
  let thrown: unknown
  try {
    await action(event)
  } catch (error) {
    thrown = error
  }
  return { thrown: thrown as { status: number; location: string }, event }
}

describe("the environment from $env/dynamic/private (authjs.dev/getting-started/installation)", () => {
  beforeEach(() =>
    setKitRuntime(() => ({
      building: false,
      env: {
        AUTH_SECRET: SECRET,
        AUTH_TRUST_HOST: "true",
        AUTH_GITHUB_ID: "gh-id-from-env",
        AUTH_GITHUB_SECRET: "gh-secret-from-env",
      },
    })),
  )

  it("SvelteKitAuth({ providers: [GitHub] }): the hook answers, the action goes to GitHub", async () => {
    // src/auth.ts as the installation guide writes it.
    const { handle, signIn } = SvelteKitAuth({ providers: [GitHub] })

    const { response } = await runHandle(
      handle,
      createEvent(new Request(`${ORIGIN}/auth/providers`)),
    )
    expect(await response.json()).toMatchObject({ github: { id: "github", type: "oauth" } })

    // src/routes/signin/+page.server.ts: export const actions = { default: signIn }
    const { thrown, event } = await runAction(
      signIn,
      formRequest(`${ORIGIN}/signin`, {
        providerId: "github",
        redirectTo: "/dashboard",
        "authorizationParams-login": "ada",
      }),
    )
    expect(thrown.status).toBeGreaterThanOrEqual(302)
    expect(thrown.status).toBeLessThanOrEqual(303)
    const authorize = new URL(thrown.location)
    expect(authorize.origin + authorize.pathname).toBe("https://github.com/login/oauth/authorize")
    expect(authorize.searchParams.get("client_id")).toBe("gh-id-from-env")
    expect(authorize.searchParams.get("login")).toBe("ada")
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/github`)
    // The flow's cookies (state, PKCE, callback URL) are set on the event.
    expect(event.cookies.setCookieHeaders().length).toBeGreaterThan(0)
  })

  it("without AUTH_TRUST_HOST (NODE_ENV unset) the host is not trusted (Tessera, on purpose)", async () => {
    setKitRuntime(() => ({ building: false, env: { AUTH_SECRET: SECRET } }))
    const { handle } = SvelteKitAuth({ providers: [ada()] })
    const { response } = await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/session`)))
    expect(response.status).toBe(500)
  })
})

describe("+page.server.ts load (authjs.dev/reference/sveltekit#managing-the-session)", () => {
  beforeEach(() =>
    setKitRuntime(() => ({ building: false, env: { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "1" } })),
  )

  it("event.locals.auth() and the deprecated event.locals.getSession() give the session", async () => {
    const { handle, signIn } = SvelteKitAuth({ providers: [ada()] })
    const browser = new Browser()
    const { event: signedIn } = await runAction(
      signIn,
      formRequest(`${ORIGIN}/signin`, {
        providerId: "credentials",
        email: "ada@example.com",
        password: "pw",
        redirectTo: "/",
      }),
    )
    browser.receiveEvent(signedIn)

    const event = createEvent(browser.request(`${ORIGIN}/protected`))
    await runHandle(handle, event)
    // src/routes/protected/+page.server.ts
    const load = async (e: typeof event) => {
      const session = await e.locals.auth()
      if (!session?.user) return { status: 401 }
      return { session }
    }
    expect(await load(event)).toMatchObject({ session: { user: { name: "Ada" } } })
    const locals = event.locals as App.Locals & { getSession?: () => Promise<unknown> }
    expect(await locals.getSession?.()).toMatchObject({ user: { name: "Ada" } })
  })
})

describe("basePath with @auth/sveltekit (authjs.dev/reference/sveltekit#basepath)", () => {
  beforeEach(() =>
    setKitRuntime(() => ({
      building: false,
      env: { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" },
    })),
  )

  it("hook, form actions and the client under /api/auth", async () => {
    const { handle, signIn, signOut } = SvelteKitAuth({ basePath: "/api/auth", providers: [ada()] })

    // /auth/* is the app's own now; /api/auth/* is Tessera's.
    const own = await runHandle(handle, createEvent(new Request(`${ORIGIN}/auth/session`)))
    expect(own.resolved).toBe(true)
    const served = await runHandle(handle, createEvent(new Request(`${ORIGIN}/api/auth/session`)))
    expect(served.resolved).toBe(false)
    expect(await served.response.json()).toBeNull()

    // Without a provider the signIn action goes to the built-in page under basePath.
    const { thrown } = await runAction(
      signIn,
      formRequest(`${ORIGIN}/signin`, { redirectTo: "/after" }),
    )
    expect(new URL(thrown.location, ORIGIN).pathname).toBe("/api/auth/signin")

    // The client, answered by the hook, as in the browser.
    const browser = new Browser()
    const location = { href: `${ORIGIN}/account`, reload: vi.fn() }
    vi.stubGlobal("window", { location })
    vi.stubGlobal("fetch", async (input: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers)
      if ((init.method ?? "GET").toUpperCase() === "POST") headers.set("origin", ORIGIN)
      const request = browser.request(new URL(input, location.href).href, { ...init, headers })
      const { response } = await runHandle(handle, createEvent(request))
      browser.receiveResponse(response)
      return response
    })
    const result = await clientSignIn("credentials", {
      email: "ada@example.com",
      password: "pw",
      redirect: false,
      basePath: "/api/auth",
    })
    expect(result).toMatchObject({ ok: true, error: undefined })
    const after = createEvent(browser.request(`${ORIGIN}/`))
    await runHandle(handle, after)
    expect((await after.locals.auth())?.user?.name).toBe("Ada")

    const out = await clientSignOut({ redirect: false, basePath: "/api/auth" })
    expect(out?.url).toBeTypeOf("string")
    const gone = createEvent(browser.request(`${ORIGIN}/`))
    await runHandle(handle, gone)
    expect(await gone.locals.auth()).toBeNull()

    // The signOut form action under basePath too.
    const { thrown: outThrown } = await runAction(
      signOut,
      formRequest(`${ORIGIN}/signout`, { redirectTo: "/bye" }),
    )
    expect(outThrown.location).toMatch(/\/bye$/)
  })
})
