/**
 * Audit 11 (issue 9): the OAuth flow is bound to the session that started it,
 * with JWT sessions too (the first tests used database sessions), and for the
 * "started by one user, finished as another" case through a session the
 * attacker swapped in by signing in on the victim's browser.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import Credentials from "@tessera/core/providers/credentials"
import { Browser as AppBrowser, SECRET } from "../harness/index.js"
import { issuerOn, StandIn, type FakeIssuer } from "../harness/stand-in.js"

let standIn: StandIn
let issuer: FakeIssuer
beforeAll(async () => {
  standIn = await StandIn.start()
  issuer = await issuerOn(standIn)
})
afterAll(() => standIn?.stop())

async function linkingApp(
  strategy: "jwt" | "database",
  providerExtra: Record<string, unknown> = {},
) {
  const adapter = MemoryAdapter()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy },
    logger: { error() {}, warn() {} },
    providers: [
      Credentials({
        credentials: { username: {} },
        authorize: ({ username }) =>
          username === "ada" || username === "bob"
            ? { id: String(username), name: String(username), email: `${username}@example.com` }
            : null,
      }),
      {
        id: "idp",
        name: "IdP",
        type: "oidc" as const,
        issuer: issuer.issuer,
        clientId: "client-1",
        clientSecret: "client-1-secret",
        dangerouslyAllowInsecureHttpRequests: true,
        ...providerExtra,
      },
    ],
  }
  // Stored users, so JWT sessions have a user (and a session record) to link to.
  for (const id of ["ada", "bob"])
    await adapter.createUser!({
      id,
      name: id,
      email: `${id}@example.com`,
      emailVerified: new Date(),
    })
  return { config, adapter }
}

async function signInWithCredentials(browser: AppBrowser, username: string) {
  const csrfToken = await browser.csrfToken()
  await browser.request("/auth/callback/credentials", { body: { username, csrfToken } })
}

const linksOf = (adapter: ReturnType<typeof MemoryAdapter>) =>
  [...adapter.store.accounts.values()].filter((a) => a.provider === "idp").map((a) => a.userId)

describe.each(["jwt", "database"] as const)("with %s sessions", (strategy) => {
  test("Ada starts linking, the browser is Bob's by the callback: nothing is linked to Bob", async () => {
    const { config, adapter } = await linkingApp(strategy)
    const browser = new AppBrowser(config)
    await signInWithCredentials(browser, "ada")
    const start = await browser.startSignIn("idp")
    const callback = issuer.authorize(new URL(start.headers.get("location")!), `${strategy}-1`)
    await browser.request("/auth/signout", { body: { csrfToken: await browser.csrfToken() } })
    await signInWithCredentials(browser, "bob")
    await browser.request(callback.href)
    expect(linksOf(adapter)).not.toContain("bob")
  })

  test("started signed out, finished signed in as Bob: not linked to Bob", async () => {
    const { config, adapter } = await linkingApp(strategy)
    const browser = new AppBrowser(config)
    const start = await browser.startSignIn("idp")
    const callback = issuer.authorize(new URL(start.headers.get("location")!), `${strategy}-2`)
    await signInWithCredentials(browser, "bob")
    await browser.request(callback.href)
    expect(linksOf(adapter)).not.toContain("bob")
  })

  test("the user who started it gets the account linked", async () => {
    const { config, adapter } = await linkingApp(strategy)
    const browser = new AppBrowser(config)
    await signInWithCredentials(browser, "ada")
    const start = await browser.startSignIn("idp")
    await browser.request(
      issuer.authorize(new URL(start.headers.get("location")!), `${strategy}-3`).href,
    )
    expect(linksOf(adapter)).toEqual(["ada"])
  })
})

describe.each(["jwt", "database"] as const)(
  "%s sessions, a flow bound by fewer cookies",
  (strategy) => {
    test.each([
      ["pkce only", { checks: ["pkce"] }],
      ["state only", { checks: ["state"] }],
      [
        'checks: ["none"] (dangerouslyAllowNoChecks)',
        { checks: ["none"], dangerouslyAllowNoChecks: true },
      ],
    ])(
      "%s: the attacker's callback URL opened in Bob's signed-in browser links nothing to Bob",
      async (_, extra) => {
        const { config, adapter } = await linkingApp(strategy, extra)
        // The attacker starts a sign-in of their own and keeps the callback URL.
        const attacker = new AppBrowser(config)
        const start = await attacker.startSignIn("idp")
        const callback = issuer.authorize(
          new URL(start.headers.get("location")!),
          `attacker-${strategy}`,
        )
        // Bob, signed in, is made to open it (a link, an image, a redirect).
        const bob = new AppBrowser(config)
        await signInWithCredentials(bob, "bob")
        const answer = await bob.request(callback.href)
        expect(linksOf(adapter)).not.toContain("bob")
        if (extra.checks[0] === "none") {
          // Nothing ties the callback to a browser (hence "dangerously"): it signs Bob's browser
          // in to the attacker's account, a login CSRF, but never links to Bob's.
          expect(answer.headers.get("location")).not.toContain("error")
          expect(linksOf(adapter)).toHaveLength(1)
        } else {
          expect(answer.headers.get("location")).toContain("error=OAuthCallbackError")
        }
      },
    )
  },
)
