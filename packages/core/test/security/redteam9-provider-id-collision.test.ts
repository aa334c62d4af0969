/**
 * Red team 9: two providers, one account id. Without an adapter, a JWT
 * session's user came straight from the provider's profile, its `id` (and so
 * the token's `sub`) being the provider's account id. Ids are only unique
 * within a provider: GitHub user 1234567 and GitLab user 1234567 are two
 * people, and GitHub's ids are public. An app following Auth.js's guide
 * (`session.user.id = token.sub`, then keying its own data by it) gave the
 * attacker who signed in through the second provider the victim's data.
 *
 * As in Auth.js, the user of a sign-in without an adapter now gets an id of
 * its own (a random UUID), never the provider's; the provider's id stays the
 * account's `providerAccountId`, which with `account.provider` is what a
 * stateless app keys by.
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { customFetch } from "@tessera/core"
import { AppBrowser, FakeIssuer, json, setsSession, StandIn } from "@tessera/testing"

const ORIGIN = "http://localhost:3000"
/** The authorization server both providers use (the stand-in answers for its host). */
const BASE = "https://idp.example"
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
    // Both providers know someone with the account id 1234567.
    userinfo: (record) => json({ id: 1234567, name: record.sub, email: null }),
  })
})
afterAll(() => standIn?.stop())

/** A plain OAuth 2 provider at the shared issuer (both ids' accounts are number 1234567). */
function provider(id: string) {
  const base = BASE
  return {
    id,
    name: id,
    type: "oauth" as const,
    authorization: `${base}/authorize`,
    token: `${base}/token`,
    userinfo: `${base}/userinfo`,
    clientId: "client-1",
    clientSecret: "client-1-secret",
    checks: ["pkce", "state"] as ("pkce" | "state")[],
    [customFetch]: standIn.fetch,
  }
}

/** What the app keys its data by, as Auth.js's guide shows it: `session.user.id = token.sub`. */
const appConfig = (): AuthConfig => ({
  secret: "a-test-secret-that-is-long-enough-0123456789",
  trustHost: true,
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
  providers: [provider("github"), provider("gitlab")],
  callbacks: {
    session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
  },
})

async function signInAs(providerId: string, who: string) {
  const browser = new AppBrowser(appConfig(), ORIGIN)
  const start = await browser.startSignIn(providerId)
  const done = await browser.request(issuer.authorize(start.headers.get("location")!, who).href)
  expect(setsSession(done)).toBe(true)
  return (await browser.session()) as { user: { id: string; name: string } }
}

test("the same account id at two providers is two users", async () => {
  const victim = await signInAs("github", "victim")
  const attacker = await signInAs("gitlab", "attacker")
  expect(victim.user.name).toBe("victim")
  expect(attacker.user.name).toBe("attacker")
  expect(attacker.user.id).not.toBe(victim.user.id)
  // Neither is the provider's id, which names no one outside its provider.
  expect([victim.user.id, attacker.user.id]).not.toContain("1234567")
  expect(victim.user.id).toMatch(
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  )
})

test("the provider's id stays the account's providerAccountId, for the jwt callback", async () => {
  const accounts: { provider: string; providerAccountId: string }[] = []
  const browser = new AppBrowser(
    {
      ...appConfig(),
      callbacks: {
        jwt: ({ token, account }) => {
          if (account) accounts.push(account)
          return token
        },
      },
    },
    ORIGIN,
  )
  const start = await browser.startSignIn("gitlab")
  await browser.request(issuer.authorize(start.headers.get("location")!, "ada").href)
  expect(accounts).toMatchObject([{ provider: "gitlab", providerAccountId: "1234567" }])
})
