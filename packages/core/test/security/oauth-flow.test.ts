/**
 * Attacks on the OAuth flow's ties to the browser and to the session:
 *
 * - a sibling subdomain planting its own sign-in's check cookies (they are
 *   `__Host-` on https, which no other host can set);
 * - a callback that lands in a browser whose session changed since the
 *   sign-in started (a shared computer, a swapped session): the provider
 *   account must not be linked to whoever is signed in then;
 * - turning the checks off (`checks: ["none"]`) by accident.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import Credentials from "@tessera/core/providers/credentials"
import { Browser as AppBrowser, setCookies as parseSetCookies } from "../harness/index.js"
import { issuerOn, StandIn, type FakeIssuer } from "../harness/stand-in.js"
import { recordingLogger, SECRET } from "../harness/index.js"

let standIn: StandIn
let issuer: FakeIssuer
beforeAll(async () => {
  standIn = await StandIn.start()
  issuer = await issuerOn(standIn)
})
afterAll(() => standIn?.stop())

function provider(extra: Record<string, unknown> = {}) {
  return {
    id: "idp",
    name: "IdP",
    type: "oidc" as const,
    issuer: issuer.issuer,
    clientId: "client-1",
    clientSecret: "client-1-secret",
    dangerouslyAllowInsecureHttpRequests: true,
    ...extra,
  }
}

test("on https, the PKCE, state and nonce cookies are __Host- (a sibling subdomain cannot plant them)", async () => {
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    providers: [provider({ checks: ["pkce", "state", "nonce"] })],
  }
  const browser = new AppBrowser(config, "https://app.example")
  const start = await browser.startSignIn("idp")
  const names = parseSetCookies(start)
    .map((c) => c.name)
    .filter((name) => /pkce|state|nonce/.test(name))
  expect(names.sort()).toEqual([
    "__Host-tessera.nonce",
    "__Host-tessera.pkce.code_verifier",
    "__Host-tessera.state",
  ])
  for (const cookie of parseSetCookies(start).filter((c) => names.includes(c.name))) {
    expect(cookie.attributes.secure).toBe(true)
    expect(cookie.attributes.path).toBe("/")
    expect(cookie.attributes.domain).toBeUndefined()
  }
})

test("a __Host- cookie with a domain is refused when the configuration is resolved", async () => {
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [provider()],
    cookies: { state: { options: { domain: "example.com" } } },
  }
  const response = await Auth(new Request("https://app.example/auth/session"), config)
  expect(response.status).toBe(500)
})

describe("linking needs the signed-in user to have started the sign-in", () => {
  /** Credentials for two users, Ada and Bob, plus the OIDC provider, with database sessions. */
  function linkingApp() {
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      session: { strategy: "database" },
      providers: [
        Credentials({
          credentials: { username: {} },
          authorize: ({ username }) =>
            username === "ada" || username === "bob"
              ? { id: String(username), name: String(username), email: `${username}@example.com` }
              : null,
        }),
        provider(),
      ],
    }
    return { config, adapter }
  }

  async function signInWithCredentials(browser: AppBrowser, username: string) {
    const csrfToken = await browser.csrfToken()
    await browser.request("/auth/callback/credentials", { body: { username, csrfToken } })
  }

  test("Ada starts linking, the session becomes Bob's before the callback: nothing is linked to Bob", async () => {
    const { config, adapter } = linkingApp()
    const browser = new AppBrowser(config)
    await signInWithCredentials(browser, "ada")
    const start = await browser.startSignIn("idp")
    const callback = issuer.authorize(new URL(start.headers.get("location")!), "idp-user-1")
    // The session changes hands (sign-out, then Bob signs in) in the same browser.
    await browser.request("/auth/signout", { body: { csrfToken: await browser.csrfToken() } })
    await signInWithCredentials(browser, "bob")
    await browser.request(callback.href)
    const links = [...adapter.store.accounts.values()].filter((a) => a.provider === "idp")
    // The callback went through (a sign-in of its own), but not as a link to Bob.
    expect(links).toHaveLength(1)
    expect(links[0]!.userId).not.toBe("bob")
  })

  test("a sign-in started by nobody never links to the session it lands in", async () => {
    const { config, adapter } = linkingApp()
    const browser = new AppBrowser(config)
    const start = await browser.startSignIn("idp") // anonymous
    const callback = issuer.authorize(new URL(start.headers.get("location")!), "idp-user-2")
    await signInWithCredentials(browser, "bob")
    await browser.request(callback.href)
    const links = [...adapter.store.accounts.values()].filter((a) => a.provider === "idp")
    expect(links).toHaveLength(1)
    expect(links[0]!.userId).not.toBe("bob")
  })

  test("the user who started it gets the account linked", async () => {
    const { config, adapter } = linkingApp()
    const browser = new AppBrowser(config)
    await signInWithCredentials(browser, "ada")
    const start = await browser.startSignIn("idp")
    await browser.request(
      issuer.authorize(new URL(start.headers.get("location")!), "idp-user-3").href,
    )
    const links = [...adapter.store.accounts.values()].filter((a) => a.provider === "idp")
    expect(links.map((a) => a.userId)).toEqual(["ada"])
  })
})

describe('checks: ["none"]', () => {
  test("is refused unless marked dangerous", async () => {
    const log = recordingLogger()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      providers: [provider({ checks: ["none"] })],
    }
    expect((await Auth(new Request("http://localhost:3000/auth/providers"), config)).status).toBe(
      500,
    )
    expect(log.errors[0]?.message).toMatch(/dangerouslyAllowNoChecks/)
  })

  test("with dangerouslyAllowNoChecks it works, and warns", async () => {
    const log = recordingLogger()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      providers: [provider({ checks: ["none"], dangerouslyAllowNoChecks: true })],
    }
    expect((await Auth(new Request("http://localhost:3000/auth/providers"), config)).status).toBe(
      200,
    )
    expect(log.warnings).toContain("oauth-checks-none")
  })
})
