/**
 * Red team, round 15: the identity built-in OAuth 2 providers hand to the sign-in flow. The rule
 * under attack: an unverified e-mail never identifies an account, even where the app set
 * `allowDangerousEmailAccountLinking` (which Auth.js honours for any address a profile names).
 * Each provider's own quirk says whether its address was checked; an attacker who controls an
 * account at the provider puts the victim's address where the profile reads it:
 *
 * - GitHub: `/user` without a public address, `/user/emails` with the victim's address verified
 *   but not primary, or primary but unverified;
 * - Discord: the victim's address with `verified: false` (or `"true"` as a string);
 *
 * and the sign-in must neither link to the victim's account nor store the address as verified.
 * (OpenID providers' `email_verified` is attacked in redteam10-email-identity; VK in redteam15-vk.)
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { customFetch, type AuthConfig } from "@tessera/core"
import type { AdapterUser } from "@tessera/core/adapters"
import Discord from "@tessera/core/providers/discord"
import GitHub, { type GitHubEmail } from "@tessera/core/providers/github"
import { AppBrowser, FakeIssuer, json, MemoryAdapter, setsSession, StandIn } from "@tessera/testing"
import { recordingLogger, SECRET } from "../harness/index.js"

const ORIGIN = "http://localhost:3000"
const VICTIM = "victim@mail.test"

let standIn: StandIn
let github: FakeIssuer
let discord: FakeIssuer
/** What the attacker's GitHub account answers at /user and /user/emails. */
let githubUser: Record<string, unknown>
let githubEmails: GitHubEmail[]
/** What the attacker's Discord account answers at /users/@me. */
let discordUser: Record<string, unknown>

beforeAll(async () => {
  standIn = await StandIn.start()
  github = await FakeIssuer.create({
    standIn,
    issuer: "https://github.com",
    authorizationEndpoint: "https://github.com/login/oauth/authorize",
    tokenEndpoint: "https://github.com/login/oauth/access_token",
    userinfoEndpoint: "https://api.github.com/user",
    discovery: false,
    clientId: "gh-client",
    clientSecret: "gh-secret",
    authMethod: "client_secret_post",
    userinfo: () => json(githubUser),
  })
  standIn.on("GET", "https://api.github.com/user/emails", () => json(githubEmails))
  discord = await FakeIssuer.create({
    standIn,
    issuer: "https://discord.com",
    authorizationEndpoint: "https://discord.com/oauth2/authorize",
    tokenEndpoint: "https://discord.com/api/oauth2/token",
    userinfoEndpoint: "https://discord.com/api/users/@me",
    discovery: false,
    clientId: "dc-client",
    clientSecret: "dc-secret",
    authMethod: "client_secret_post",
    userinfo: () => json(discordUser),
  })
})
afterAll(() => standIn?.stop())

/** An app with GitHub and Discord, both allowed to link by address; the victim's account if asked. */
async function app(victim = true) {
  const adapter = MemoryAdapter()
  const log = recordingLogger()
  if (victim)
    await adapter.createUser!({
      id: "victim",
      name: "Victim",
      email: VICTIM,
      emailVerified: new Date("2026-01-01T00:00:00Z"),
    } as AdapterUser)
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    debug: true,
    logger: { ...log.logger, warn() {} },
    providers: [
      GitHub({
        clientId: "gh-client",
        clientSecret: "gh-secret",
        allowDangerousEmailAccountLinking: true,
        [customFetch]: standIn.fetch,
      }),
      Discord({
        clientId: "dc-client",
        clientSecret: "dc-secret",
        allowDangerousEmailAccountLinking: true,
        [customFetch]: standIn.fetch,
      }),
    ],
  }
  return { config, store: adapter.store }
}

async function signIn(config: AuthConfig, id: "github" | "discord") {
  const browser = new AppBrowser(config, ORIGIN)
  const start = await browser.startSignIn(id)
  const issuer = id === "github" ? github : discord
  const done = await browser.request(issuer.authorize(start.headers.get("location")!, "m").href)
  return { browser, done }
}

const githubCases: Array<[string, GitHubEmail[]]> = [
  [
    "verified but not primary",
    [
      { email: "mallory@mail.test", primary: true, verified: true, visibility: "private" },
      { email: VICTIM, primary: false, verified: true, visibility: null },
    ],
  ],
  [
    "primary but unverified",
    [{ email: VICTIM, primary: true, verified: false, visibility: "private" }],
  ],
  [
    "primary with verified as a string",
    [{ email: VICTIM, primary: true, verified: "true" as unknown as boolean, visibility: null }],
  ],
]

describe("GitHub: an address /user/emails does not give as primary and verified", () => {
  test.each(githubCases)("%s: links to no one and is not the user's", async (_, emails) => {
    githubUser = { login: "mallory", id: 4242, name: "M", email: null, avatar_url: null }
    githubEmails = emails
    for (const victim of [true, false]) {
      const { config, store } = await app(victim)
      const { browser, done } = await signIn(config, "github")
      expect([...store.accounts.values()].map((account) => account.userId)).not.toContain("victim")
      if (setsSession(done)) expect((await browser.session()).user.email).not.toBe(VICTIM)
      else
        expect(done.headers.get("location")).toBe(
          `${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`,
        )
      for (const user of store.users.values())
        if (user.id !== "victim" && user.email === VICTIM) expect(user.emailVerified).toBeNull()
    }
  })
})

describe("Discord: an address Discord did not verify", () => {
  test.each([false, "true", 1, null])(
    "verified: %s: links to no one, stored (if at all) unverified",
    async (verified) => {
      discordUser = { id: "80351110224678912", username: "mallory", email: VICTIM, verified }
      const withVictim = await app(true)
      const refused = await signIn(withVictim.config, "discord")
      expect(refused.done.headers.get("location")).toBe(
        `${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`,
      )
      expect(setsSession(refused.done)).toBe(false)
      expect(withVictim.store.accounts.size).toBe(0)

      const alone = await app(false)
      const { done } = await signIn(alone.config, "discord")
      expect(setsSession(done)).toBe(true)
      const [user] = [...alone.store.users.values()]
      expect(user).toMatchObject({ email: VICTIM, emailVerified: null })
    },
  )

  test("verified: true (the control): the address is the user's, verified, and links with allowDangerousEmailAccountLinking", async () => {
    discordUser = { id: "80351110224678912", username: "ada", email: VICTIM, verified: true }
    const { config, store } = await app(true)
    const { done } = await signIn(config, "discord")
    expect(setsSession(done)).toBe(true)
    expect([...store.accounts.values()].map((a) => a.userId)).toEqual(["victim"])
  })
})
