/**
 * Auth.js v5 configuration options the first pass did not cover, as authjs.dev/reference/core
 * and its guides write them, imports changed to `@tessera/*`: `cookies` overrides (a name, a
 * `domain` shared with subdomains), `useSecureCookies`, `theme` (colorScheme, logo, brandColor,
 * buttonText), `logger` (the debugging guide's `error(code, ...message)` shape; `error` gets an
 * Error with `.type`, `warn` a code, `debug` a message and metadata, even without `debug: true`),
 * `experimental`, `skipCSRFCheck` and `raw` from the package root.
 */
import { describe, expect, test } from "vitest"
import { Auth, raw, skipCSRFCheck, type AuthConfig } from "@tessera/core"
import type { AuthError } from "@tessera/core/errors"
import Credentials from "@tessera/core/providers/credentials"
import Passkey from "@tessera/core/providers/passkey"
import { setCookie } from "../harness/cookies.js"
import { HTTPS_ORIGIN, ORIGIN, SECRET, get, signIn } from "../harness/index.js"

const ada = Credentials({
  credentials: { username: { label: "Username" }, password: { label: "Password" } },
  authorize: (c) =>
    c.username === "ada" && c.password === "pw"
      ? { id: "1", name: "Ada", email: "a@x.test" }
      : null,
})

describe("cookies (authjs.dev/reference/core#cookies)", () => {
  test("the session cookie shared with subdomains: name, domain, options", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [ada],
      cookies: {
        sessionToken: {
          name: `__Secure-next-auth.session-token`,
          options: {
            httpOnly: true,
            sameSite: "lax",
            path: "/",
            secure: true,
            domain: ".app.example",
          },
        },
      },
    }
    const { response, jar } = await signIn(
      config,
      { username: "ada", password: "pw" },
      { origin: HTTPS_ORIGIN },
    )
    const cookie = setCookie(response, "__Secure-next-auth.session-token")
    expect(cookie?.attributes).toMatchObject({
      domain: ".app.example",
      path: "/",
      httponly: true,
      secure: true,
      samesite: "Lax",
    })
    const session = await Auth(get("/auth/session", { origin: HTTPS_ORIGIN, jar }), config)
    expect(await session.json()).toMatchObject({ user: { name: "Ada" } })
  })

  test("a __Host- name with a domain is refused at start (Tessera, on purpose)", async () => {
    const logged: Error[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [ada],
      logger: { error: (e) => void logged.push(e) },
      cookies: { csrfToken: { name: "__Host-my.csrf", options: { domain: ".app.example" } } },
    }
    const response = await Auth(get("/auth/csrf", { origin: HTTPS_ORIGIN }), config)
    expect(response.status).toBe(500)
    expect((logged[0] as AuthError).type).toBe("InvalidConfiguration")
  })
})

describe("useSecureCookies (authjs.dev/reference/core#usesecurecookies)", () => {
  test("true on http: __Secure- names and Secure; false on https: plain names", async () => {
    const on: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [ada],
      useSecureCookies: true,
    }
    const a = await signIn(on, { username: "ada", password: "pw" })
    const secure = setCookie(a.response, "__Secure-tessera.session-token")
    expect(secure?.attributes.secure).toBe(true)

    const off: AuthConfig = { ...on, useSecureCookies: false }
    const b = await signIn(off, { username: "ada", password: "pw" }, { origin: HTTPS_ORIGIN })
    const plain = setCookie(b.response, "tessera.session-token")
    expect(plain).toBeDefined()
    expect(plain?.attributes.secure).toBeUndefined()
  })
})

describe("theme (authjs.dev/reference/core#theme)", () => {
  test("colorScheme, logo, brandColor and buttonText on the built-in sign-in page", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [ada],
      theme: {
        colorScheme: "dark",
        logo: "https://app.example/logo.png",
        brandColor: "#346df1",
        buttonText: "#ffffff",
      },
    }
    const response = await Auth(get("/auth/signin"), config)
    expect(response.status).toBe(200)
    const page = await response.text()
    expect(page).toContain(`class="dark"`)
    expect(page).toContain(`src="https://app.example/logo.png"`)
    expect(page).toContain("--brand:#346df1")
    expect(page).toContain("--button-text:#ffffff")
    // The logo is allowed by the page's Content-Security-Policy.
    expect(response.headers.get("content-security-policy")).toContain("img-src *")
  })
})

describe("logger (authjs.dev/guides/debugging#logging)", () => {
  test("the guide's logger: error(code, ...message), warn(code, ...message), debug(code, ...message)", async () => {
    const log = { error: [] as unknown[][], warn: [] as unknown[][], debug: [] as unknown[][] }
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [
        ada,
        Credentials({
          id: "broken",
          credentials: {},
          authorize() {
            throw new Error("database down")
          },
        }),
      ],
      skipCSRFCheck,
      logger: {
        error(code, ...message) {
          log.error.push([code, message])
        },
        warn(code, ...message) {
          log.warn.push([code, message])
        },
        debug(code, ...message) {
          log.debug.push([code, message])
        },
      },
    }
    // warn(code): skipCSRFCheck is a risky setting.
    await Auth(get("/auth/session"), config)
    expect(log.warn.map(([code]) => code)).toContain("csrf-disabled")

    // A server fault: error(error) with the Error and its `.type`.
    const { response } = await signIn(config, {}, { providerId: "broken" })
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
      "Configuration",
    )
    const [error] = log.error.at(-1)! as [AuthError]
    expect(error).toBeInstanceOf(Error)
    expect(error.type).toBe("CallbackRouteError")

    // A wrong password: Auth.js logs it through logger.error, Tessera at debug level (on
    // purpose); an app's own logger.debug hears it without `debug: true`, as in Auth.js.
    const errorsBefore = log.error.length
    await signIn(config, { username: "ada", password: "wrong" })
    expect(log.error.length).toBe(errorsBefore)
    const refusal = log.debug.find(
      ([, [metadata]]) => (metadata as { error?: AuthError })?.error?.type === "CredentialsSignin",
    )
    expect(refusal?.[0]).toBeTypeOf("string")
  })

  test("a partial logger keeps the defaults for the rest", async () => {
    const warnings: string[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [ada],
      skipCSRFCheck,
      logger: { warn: (code) => void warnings.push(code) },
    }
    expect((await Auth(get("/auth/session"), config)).status).toBe(200)
    expect(warnings).toContain("csrf-disabled")
  })
})

describe("raw, experimental (authjs.dev/reference/core)", () => {
  test("Auth(request, { ...config, raw }) answers the internal result with its cookies", async () => {
    const config: AuthConfig = { secret: SECRET, trustHost: true, providers: [ada] }
    const result = (await Auth(get("/auth/csrf"), { ...config, raw })) as unknown as {
      body?: { csrfToken?: string }
      cookies?: { name: string }[]
    }
    expect(result.body?.csrfToken).toBeTypeOf("string")
    expect(result.cookies?.map((c) => c.name)).toContain("tessera.csrf-token")
  })

  test("experimental: { enableWebAuthn: true } with the Passkey provider is accepted", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      url: ORIGIN,
      providers: [Passkey],
      experimental: { enableWebAuthn: true },
      adapter: undefined,
    } as AuthConfig
    // Passkeys need an adapter; without one this is a configuration error, as in Auth.js.
    const logged: Error[] = []
    const response = await Auth(get("/auth/providers"), {
      ...config,
      logger: { error: (e) => void logged.push(e) },
    })
    expect(response.status).toBe(500)
    expect((logged[0] as AuthError).type).toMatch(/MissingAdapter/)
  })
})
