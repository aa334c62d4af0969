/**
 * Login CSRF and forced linking through an OAuth 2 provider that does not enforce PKCE on codes
 * issued without a challenge (RFC 9700 §4.8.2 asks it to; many providers, older GitHub among
 * them, do not): the attacker approves their own authorization request, with no
 * `code_challenge`, and gets a code for their own provider account. They then send the victim's
 * browser, while the victim is signing in or linking with that provider (a popup or tab the
 * attacker's page opened holds a window reference it can navigate), to the app's callback with
 * that code. With PKCE as the only check (Tessera's and Auth.js's default for OAuth 2
 * providers), nothing ties the code to the victim's sign-in: the victim's verifier is sent, the
 * provider ignores it, and the attacker's provider account is linked to the victim's user, who
 * is then the attacker's to sign in as. RFC 9700 §4.7.1: PKCE stands in for `state` only where
 * the client knows the server enforces it.
 *
 * The provider is the stand-in authorization server (`FakeIssuer`), which, like those providers,
 * checks a verifier only against a challenge it was given. The first two tests failed (the
 * attacker's account linked to Ada; a session as the attacker) while the default checks of
 * OAuth 2 providers were `["pkce"]`; they are `["pkce", "state"]` now (flows/oauth/normalize.ts).
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import { customFetch, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryAdapter } from "@tessera/testing"
import { Browser, ORIGIN, recordingLogger, SECRET } from "../harness/index.js"
import { FakeIssuer, json, StandIn } from "../harness/stand-in.js"

const BASE = "https://oauth2.example"
let standIn: StandIn
let issuer: FakeIssuer
beforeAll(async () => {
  standIn = await StandIn.start()
  issuer = await FakeIssuer.create({
    standIn,
    issuer: BASE,
    authorizationEndpoint: `${BASE}/authorize`,
    tokenEndpoint: `${BASE}/token`,
    userinfoEndpoint: `${BASE}/userinfo`,
    clientId: "client-1",
    clientSecret: "client-1-secret",
    userinfo: (record) => json({ id: record.sub, name: record.sub, email: null }),
  })
})
afterAll(() => standIn?.stop())

function app(checks?: ("pkce" | "state")[]) {
  const adapter = MemoryAdapter()
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    logger: log.logger,
    session: { strategy: "database" },
    providers: [
      Credentials({
        credentials: { username: {} },
        authorize: ({ username }) =>
          username === "ada" ? { id: "ada", name: "Ada", email: "ada@example.com" } : null,
      }),
      {
        id: "oauth2",
        name: "OAuth 2",
        type: "oauth",
        authorization: `${BASE}/authorize`,
        token: `${BASE}/token`,
        userinfo: `${BASE}/userinfo`,
        clientId: "client-1",
        clientSecret: "client-1-secret",
        ...(checks ? { checks } : {}),
        [customFetch]: standIn.fetch,
      },
    ],
  }
  return { config, adapter, log }
}

/** The attacker's own authorization request, approved as their account: no challenge, no state. */
function attackersCallback(): URL {
  const request = new URL(`${BASE}/authorize`)
  request.searchParams.set("client_id", "client-1")
  request.searchParams.set("response_type", "code")
  request.searchParams.set("redirect_uri", `${ORIGIN}/auth/callback/oauth2`)
  return issuer.authorize(request, "mallory-at-provider")
}

async function adaLinking(config: AuthConfig) {
  const browser = new Browser(config)
  await browser.request("/auth/callback/credentials", {
    body: { username: "ada", csrfToken: await browser.csrfToken() },
  })
  expect((await browser.session())?.user?.name).toBe("Ada")
  // Ada starts linking her account at the provider; she is on its consent page now.
  const start = await browser.startSignIn("oauth2")
  expect(start.status).toBe(302)
  return { browser, start }
}

test("the default checks: the attacker's code in Ada's linking browser links nothing to Ada", async () => {
  const { config, adapter } = app()
  const { browser } = await adaLinking(config)

  const response = await browser.request(attackersCallback().href)

  const location = new URL(response.headers.get("location")!)
  expect(location.searchParams.get("error")).toBe("OAuthCallbackError")
  expect(
    adapter.store.accounts.size === 0 ||
      [...adapter.store.accounts.values()].every((a) => a.userId !== "ada"),
  ).toBe(true)
  // Ada is still herself.
  expect((await browser.session())?.user?.name).toBe("Ada")
})

test("the default checks: the attacker's code in a browser signing in makes no session", async () => {
  const { config } = app()
  const browser = new Browser(config)
  await browser.startSignIn("oauth2")
  const response = await browser.request(attackersCallback().href)
  expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
    "OAuthCallbackError",
  )
  expect(await browser.session()).toBeNull()
})

test('checks: ["pkce"] set by the app stays as set (the provider enforces PKCE, the app says)', async () => {
  const { config } = app(["pkce"])
  const browser = new Browser(config)
  const start = await browser.startSignIn("oauth2")
  const location = new URL(start.headers.get("location")!)
  expect(location.searchParams.has("state")).toBe(false)
  expect(location.searchParams.get("code_challenge_method")).toBe("S256")
})

test("Ada's own linking still works with the default checks", async () => {
  const { config, adapter } = app()
  const { browser, start } = await adaLinking(config)
  const back = issuer.authorize(new URL(start.headers.get("location")!), "ada-at-provider")
  const response = await browser.request(back.href)
  expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBeNull()
  expect([...adapter.store.accounts.values()].map((a) => [a.providerAccountId, a.userId])).toEqual([
    ["ada-at-provider", "ada"],
  ])
})
