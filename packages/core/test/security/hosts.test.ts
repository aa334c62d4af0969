/**
 * Attacks on the origin Tessera builds URLs on. The attacker sends whatever
 * `Host` and `X-Forwarded-*` they like; the URLs that come back (a mailed
 * sign-in link, redirects, form actions, OAuth `redirect_uri`, the redirect
 * proxy's target) must stay on the application's own origin, or the request
 * must be refused before anything is sent.
 */
import { describe, expect, test } from "vitest"
import { Auth, createActionURL, getSession, type AuthConfig } from "@tessera/core"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import Email from "@tessera/core/providers/email"
import { MemoryAdapter } from "@tessera/testing"
import { csrfToken, get, Jar, post, recordingLogger, SECRET } from "../harness/index.js"

const APP = "https://app.example.com"
const EVIL = "app.example.com.attacker.test"
const forged = { "x-forwarded-host": EVIL, "x-forwarded-proto": "https" }

/** An app that mails sign-in links; `mailed` gets every link it sends. */
function mailingApp(extra: Partial<AuthConfig> = {}) {
  const mailed: string[] = []
  const config: AuthConfig = {
    secret: SECRET,
    adapter: MemoryAdapter(),
    logger: recordingLogger().logger,
    providers: [
      Email({
        sendVerificationRequest: (params: EmailSendVerificationRequestParams) =>
          void mailed.push(params.url),
      }),
    ],
    ...extra,
  }
  return { config, mailed }
}

/**
 * POST /auth/signin/email for the victim, with the attacker's headers, as any
 * client can. `originHeader`: what the browser sends as `Origin` (the public
 * origin, when the request reached the server under an internal name).
 */
async function requestLinkFor(
  config: AuthConfig,
  origin: string,
  headers: Record<string, string>,
  originHeader = origin,
) {
  const jar = new Jar()
  const csrf = await Auth(get("/auth/csrf", { origin, jar, headers }), config)
  jar.update(csrf)
  if (csrf.status !== 200) return csrf
  const { csrfToken: token } = (await csrf.json()) as { csrfToken: string }
  return Auth(
    post(
      "/auth/signin/email",
      { email: "victim@example.org", csrfToken: token },
      { origin, jar, headers: { ...headers, origin: originHeader } },
    ),
    config,
  )
}

describe("a canonical origin (url / AUTH_URL) is the only origin URLs are built on", () => {
  test("the mailed link stays on the canonical origin whatever X-Forwarded-Host says", async () => {
    const { config, mailed } = mailingApp({ url: `${APP}/auth`, trustHost: true })
    const response = await requestLinkFor(config, APP, forged)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toMatch(new RegExp(`^${APP}/auth/verify-request`))
    expect(mailed).toHaveLength(1)
    expect(new URL(mailed[0]!).origin).toBe(APP)
    expect(mailed[0]).not.toContain("attacker")
  })

  test("also when the request reached the server under another Host (an internal name)", async () => {
    const { config, mailed } = mailingApp({ url: `${APP}/auth`, trustHost: true })
    const response = await requestLinkFor(config, "http://internal:3000", forged, APP)
    expect(response.status).toBe(302)
    expect(new URL(mailed[0]!).origin).toBe(APP)
  })

  test("with AUTH_URL from the environment too", async () => {
    const saved = process.env.AUTH_URL
    process.env.AUTH_URL = `${APP}/auth`
    try {
      const { config, mailed } = mailingApp()
      await requestLinkFor(config, APP, forged)
      expect(new URL(mailed[0]!).origin).toBe(APP)
    } finally {
      if (saved === undefined) delete process.env.AUTH_URL
      else process.env.AUTH_URL = saved
    }
  })

  test("redirects, the providers list and the built-in pages' form actions stay on it", async () => {
    const { config } = mailingApp({ url: APP, trustHost: true })
    const page = await Auth(get("/auth/signin", { origin: APP, headers: forged }), config)
    const html = await page.text()
    expect(html).toContain(`action="${APP}/auth/signin/email"`)
    expect(html).not.toContain(EVIL)
    const providers = await (
      await Auth(get("/auth/providers", { origin: APP, headers: forged }), config)
    ).json()
    expect(JSON.stringify(providers)).not.toContain(EVIL)
    const signout = await Auth(
      post("/auth/signout", {}, { origin: APP, headers: { ...forged, origin: APP } }),
      config,
    )
    expect(signout.headers.get("location") ?? "").not.toContain(EVIL)
  })

  test("trustHost: false with a canonical origin works for its host and refuses others with 400, not 500", async () => {
    const { config, mailed } = mailingApp({ url: APP, trustHost: false })
    const ok = await requestLinkFor(config, APP, {})
    expect(ok.status).toBe(302)
    expect(mailed).toHaveLength(1)
    const other = await Auth(get("/auth/csrf", { origin: `https://${EVIL}` }), config)
    expect(other.status).toBe(400)
    expect(await other.json()).toMatchObject({ error: "UntrustedHost" })
    const refused = await requestLinkFor(config, `https://${EVIL}`, {})
    expect(refused.status).toBe(400)
    expect(mailed).toHaveLength(1)
  })

  test("getSession picks the canonical protocol's cookie names, not a forged X-Forwarded-Proto", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      url: "http://localhost:3000",
      trustHost: true,
      providers: [(await import("../harness/index.js")).credentialsProvider()],
    }
    const { jar } = await (await import("../harness/index.js")).signIn(config)
    const forged = new Headers({ "x-forwarded-proto": "https", "x-forwarded-host": EVIL })
    const { session } = await getSession(
      { url: "http://localhost:3000/", cookies: jar.header(), headers: forged },
      config,
    )
    expect(session?.user?.email).toBe("ada@example.com")
  })
})

describe("without a canonical origin, allowedHosts bounds the hosts trustHost accepts", () => {
  test("a forged host outside the list gets 400 UntrustedHost and no mail is sent", async () => {
    const { config, mailed } = mailingApp({ trustHost: true, allowedHosts: ["app.example.com"] })
    const response = await requestLinkFor(config, APP, forged)
    expect(response.status).toBe(400)
    expect(response.headers.get("location")).toBeNull()
    expect(mailed).toEqual([])
  })

  test("a listed host works; a wildcard covers subdomains but not the bare domain", async () => {
    const { config, mailed } = mailingApp({
      trustHost: true,
      allowedHosts: ["*.preview.example.com"],
    })
    const response = await requestLinkFor(config, "https://pr-7.preview.example.com", {})
    expect(response.status).toBe(302)
    expect(new URL(mailed[0]!).origin).toBe("https://pr-7.preview.example.com")
    expect(
      (await Auth(get("/auth/csrf", { origin: "https://preview.example.com" }), config)).status,
    ).toBe(400)
    expect(
      (await Auth(get("/auth/csrf", { origin: "https://evilpreview.example.com" }), config)).status,
    ).toBe(400)
  })

  test("AUTH_ALLOWED_HOSTS is read from the environment", async () => {
    const saved = process.env.AUTH_ALLOWED_HOSTS
    process.env.AUTH_ALLOWED_HOSTS = "app.example.com, localhost:3000"
    try {
      const { config, mailed } = mailingApp({ trustHost: true })
      expect((await requestLinkFor(config, APP, forged)).status).toBe(400)
      expect(mailed).toEqual([])
    } finally {
      if (saved === undefined) delete process.env.AUTH_ALLOWED_HOSTS
      else process.env.AUTH_ALLOWED_HOSTS = saved
    }
  })

  test("with neither a canonical origin nor trustHost, nothing is answered on a client's host", async () => {
    const { config, mailed } = mailingApp({ trustHost: false })
    const response = await requestLinkFor(config, APP, forged)
    expect(response.status).toBe(500)
    expect(mailed).toEqual([])
  })
})

describe("the redirect proxy forwards OAuth codes only to allowed hosts", () => {
  const provider = {
    id: "acme",
    name: "Acme",
    type: "oauth" as const,
    clientId: "client",
    clientSecret: "secret",
    authorization: "https://idp.example/authorize",
    token: "https://idp.example/token",
    userinfo: "https://idp.example/userinfo",
    redirectProxyUrl: `${APP}/auth`,
  }

  /** A state a deployment holding the secret made, naming `target`: what a forged Host on a preview would have produced. */
  async function stateFor(target: string) {
    const preview: AuthConfig = { secret: SECRET, trustHost: true, providers: [provider] }
    const jar = new Jar()
    const { token } = await csrfToken(preview, jar, target)
    const start = await Auth(
      post("/auth/signin/acme", { csrfToken: token }, { origin: target, jar }),
      preview,
    )
    return new URL(start.headers.get("location")!).searchParams.get("state")!
  }

  test.each([
    ["without allowedHosts", undefined],
    ["with allowedHosts that do not list it", ["app.example.com", "*.preview.example.com"]],
  ])("%s, the proxy does not forward to an attacker's host", async (_, allowedHosts) => {
    const proxy: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      allowedHosts,
      providers: [provider],
    }
    const state = await stateFor(`https://${EVIL}`)
    const callback = await Auth(
      get(`/auth/callback/acme?code=victims-code&state=${encodeURIComponent(state)}`, {
        origin: APP,
      }),
      proxy,
    )
    expect(callback.headers.get("location") ?? "").not.toContain(EVIL)
    expect(callback.headers.get("location") ?? "").not.toContain("victims-code")
  })

  test("an allowed preview deployment is forwarded to", async () => {
    const proxy: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      allowedHosts: ["app.example.com", "*.preview.example.com"],
      providers: [provider],
    }
    const state = await stateFor("https://pr-7.preview.example.com")
    const callback = await Auth(
      get(`/auth/callback/acme?code=c&state=${encodeURIComponent(state)}`, { origin: APP }),
      proxy,
    )
    expect(new URL(callback.headers.get("location")!).origin).toBe(
      "https://pr-7.preview.example.com",
    )
  })
})

describe("createActionURL follows the same rules", () => {
  test("a canonical URL wins over forged headers", () => {
    const headers = new Headers({ host: EVIL, "x-forwarded-host": EVIL })
    expect(createActionURL("signin", "https", headers, { AUTH_URL: `${APP}/auth` }, {}).href).toBe(
      `${APP}/auth/signin`,
    )
  })

  test("without trust, headers build nothing", () => {
    expect(() =>
      createActionURL("signin", "https", new Headers({ host: EVIL }), {}, { trustHost: false }),
    ).toThrow(expect.objectContaining({ type: "UntrustedHost" }))
  })

  test("a host outside allowedHosts, a malformed host, or a non-http protocol is refused", () => {
    const trusted = { trustHost: true, allowedHosts: ["app.example.com"] }
    expect(() =>
      createActionURL("signin", "https", new Headers({ host: EVIL }), {}, trusted),
    ).toThrow()
    expect(() =>
      createActionURL(
        "signin",
        "https",
        new Headers({ host: "a b@evil" }),
        {},
        { trustHost: true },
      ),
    ).toThrow()
    expect(() =>
      createActionURL(
        "signin",
        "javascript",
        new Headers({ host: "app.example.com" }),
        {},
        trusted,
      ),
    ).toThrow()
    expect(() =>
      createActionURL(
        "signin",
        "https",
        new Headers({ host: "app.example.com", "x-forwarded-proto": "javascript" }),
        {},
        trusted,
      ),
    ).toThrow()
  })
})

test("signing in on a host outside allowedHosts is refused before authorize runs", async () => {
  let authorized = 0
  const { config } = mailingApp({ trustHost: true, allowedHosts: ["app.example.com"] })
  const credentials = (await import("../harness/index.js")).credentialsProvider({
    authorize: () => (authorized++, { id: "1", name: "Ada" }),
  })
  config.providers.push(credentials)
  const origin = `https://${EVIL}`
  const csrf = await Auth(get("/auth/csrf", { origin }), config)
  expect(csrf.status).toBe(400)
  const attempt = await Auth(
    post(
      "/auth/callback/credentials",
      { username: "ada", password: "x" },
      { origin, headers: { origin } },
    ),
    config,
  )
  expect(attempt.status).toBe(400)
  expect(attempt.headers.getSetCookie()).toEqual([])
  expect(authorized).toBe(0)
})
