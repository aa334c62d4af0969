/**
 * Auth.js v5's @auth/sveltekit documentation snippets (authjs.dev/reference/sveltekit,
 * getting-started/session-management), imports changed to `@tessera/sveltekit`: the
 * `src/auth.ts` setup, `handle` alone and in `sequence` with an authorization handle,
 * `event.locals.auth()` in a load function, the `signIn`/`signOut` form actions, and
 * lazy initialisation from the request event.
 */
import { redirect, type Handle } from "@sveltejs/kit"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { SvelteKitAuth, setKitRuntime, type SvelteKitAuthConfig } from "@tessera/sveltekit"
import Credentials from "@tessera/sveltekit/providers/credentials"
import { Browser, createEvent, formRequest, runHandle } from "../helpers/kit.js"

const ORIGIN = "http://localhost:5173"
const SECRET = "a-test-secret-that-is-long-enough-0123456789"

beforeEach(() => setKitRuntime(() => ({ building: false, env: { NODE_ENV: "production" } })))
afterEach(() => setKitRuntime())

/** A credentials provider that knows Ada. */
function ada() {
  return Credentials({
    credentials: { email: {}, password: {} },
    authorize: async (credentials) =>
      credentials.email === "ada@example.com" && credentials.password === "pw"
        ? { id: "1", name: "Ada", email: "ada@example.com" }
        : null,
  })
}

// src/auth.ts, as the docs write it (Credentials instead of GitHub: no network).
function docsAuth(config: Partial<SvelteKitAuthConfig> = {}) {
  return SvelteKitAuth({
    secret: SECRET,
    trustHost: true,
    providers: [ada()],
    ...config,
  })
}

/** Signs in through the docs' `signIn` form action; the browser keeps the cookie. */
async function signInThroughAction(
  signIn: ReturnType<typeof SvelteKitAuth>["signIn"],
  browser: Browser,
) {
  const event = createEvent(
    formRequest(`${ORIGIN}/signin`, {
      providerId: "credentials",
      email: "ada@example.com",
      password: "pw",
      redirectTo: "/authenticated",
    }),
  )
  let thrown: unknown
  try {
    await signIn(event)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toMatchObject({ status: 303, location: `${ORIGIN}/authenticated` })
  browser.receiveEvent(event)
}

describe("src/hooks.server.ts with sequence (authjs.dev/reference/sveltekit#per-path)", () => {
  it("an authorization handle after the auth handle reads event.locals.auth()", async () => {
    const { handle: authenticationHandle, signIn } = docsAuth()

    const authorization: Handle = async ({ event, resolve }) => {
      // Protect any routes under /authenticated
      if (event.url.pathname.startsWith("/authenticated")) {
        const session = await event.locals.auth()
        if (!session) {
          // Redirect to the signin page
          redirect(303, "/auth/signin")
        }
      }
      // If the request is still here, just proceed as normally
      return resolve(event)
    }
    // First handle authentication, then authorization
    // Each function acts as a middleware, receiving the request handle
    // And returning a handle which gets passed to the next function
    // (SvelteKit's `sequence` needs the request store only a running SvelteKit has:
    // the two handles are chained here the way it chains them.)
    const handle: Handle = ({ event, resolve }) =>
      authenticationHandle({ event, resolve: (e) => authorization({ event: e, resolve }) })

    const browser = new Browser()
    let thrown: unknown
    try {
      await runHandle(handle, createEvent(browser.request(`${ORIGIN}/authenticated`)))
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ status: 303, location: "/auth/signin" })

    await signInThroughAction(signIn, browser)
    const { response, resolved } = await runHandle(
      handle,
      createEvent(browser.request(`${ORIGIN}/authenticated`)),
    )
    expect(resolved).toBe(true)
    expect(await response.text()).toBe("page")
  })
})

describe("+layout.server.ts (authjs.dev/getting-started/session-management/get-session)", () => {
  it("load: const session = await event.locals.auth(); return { session }", async () => {
    const { handle, signIn } = docsAuth()
    const browser = new Browser()
    await signInThroughAction(signIn, browser)
    const event = createEvent(browser.request(`${ORIGIN}/`))
    await runHandle(handle, event)
    const load = async (e: typeof event) => {
      const session = await e.locals.auth()
      return { session }
    }
    const { session } = await load(event)
    // Auth.js leaves `image` out when the user has none; Tessera says null (the types allow both).
    expect(session?.user).toMatchObject({ name: "Ada", email: "ada@example.com" })
    expect(typeof session?.expires).toBe("string")
  })

  it("the built-in pages and /auth/session are served by handle", async () => {
    const { handle, signIn } = docsAuth()
    const browser = new Browser()
    await signInThroughAction(signIn, browser)
    const { response } = await runHandle(
      handle,
      createEvent(browser.request(`${ORIGIN}/auth/session`)),
    )
    expect(((await response.json()) as any).user.email).toBe("ada@example.com")
  })
})

describe("signOut form action (src/routes/signout/+page.server.ts)", () => {
  it("export const actions = { default: signOut } ends the session", async () => {
    const { handle, signIn, signOut } = docsAuth()
    const browser = new Browser()
    await signInThroughAction(signIn, browser)
    const event = createEvent(
      browser.request(`${ORIGIN}/signout`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams({ redirectTo: "/" }),
      }),
    )
    let thrown: unknown
    try {
      await signOut(event)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ status: 303 })
    browser.receiveEvent(event)
    const after = createEvent(browser.request(`${ORIGIN}/`))
    await runHandle(handle, after)
    expect(await after.locals.auth()).toBeNull()
  })
})

describe("lazy initialisation (authjs.dev/reference/sveltekit#lazy-initialization)", () => {
  it("SvelteKitAuth(async (event) => config) reads the platform per request", async () => {
    const { handle, signIn } = SvelteKitAuth(async (event) => {
      const authOptions = {
        providers: [ada()],
        secret: (event.platform as { env?: { AUTH_SECRET?: string } } | undefined)?.env
          ?.AUTH_SECRET,
        trustHost: true,
      }
      return authOptions
    })
    const browser = new Browser()
    const withPlatform = <T extends { platform: unknown }>(event: T) => {
      ;(event as { platform: unknown }).platform = { env: { AUTH_SECRET: SECRET } }
      return event
    }
    const event = withPlatform(
      createEvent(
        formRequest(`${ORIGIN}/signin`, {
          providerId: "credentials",
          email: "ada@example.com",
          password: "pw",
          redirectTo: "/",
        }),
      ),
    )
    await Promise.resolve()
      .then(() => signIn(event))
      .catch((e: unknown) => e)
    browser.receiveEvent(event)
    const next = withPlatform(createEvent(browser.request(`${ORIGIN}/`)))
    await runHandle(handle, next)
    expect((await next.locals.auth())?.user?.email).toBe("ada@example.com")
  })
})
