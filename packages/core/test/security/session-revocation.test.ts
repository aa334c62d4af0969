/**
 * Attacks on session management, driven through `Auth()` the way an attacker
 * can: ending someone else's session by guessing or learning its id, forcing
 * a "sign out everywhere" from another site, keeping a stolen JWT cookie alive
 * after the user ended it, and keeping a JWT session on an account whose
 * unproven e-mail address someone else has since proved (the session carries
 * the address).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import Email from "@tessera/core/providers/email"
import {
  completeOidcLogin,
  localOidcProvider,
  MemoryAdapter,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { ADA, Browser, csrfToken, get, Jar, makeConfig, ORIGIN, post } from "../harness/index.js"

afterEach(() => {
  vi.useRealTimers()
})

const MALLORY = { id: "user-2", name: "Mallory", email: "mallory@example.com", image: null }

function app(strategy: "jwt" | "database") {
  const adapter = MemoryAdapter()
  for (const user of [ADA, MALLORY])
    adapter.store.users.set(user.id!, {
      ...user,
      id: user.id!,
      email: user.email!,
      emailVerified: null,
      image: null,
    })
  const { config, log } = makeConfig({
    adapter,
    session: { strategy },
    debug: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username }) =>
          username === "ada" ? { ...ADA } : username === "mallory" ? { ...MALLORY } : null,
      }),
    ],
  })
  return { config, log, adapter }
}

async function signInAs(config: AuthConfig, username: string): Promise<Jar> {
  const jar = new Jar()
  const { token } = await csrfToken(config, jar)
  const response = await Auth(
    post("/auth/callback/credentials", { username, password: "x", csrfToken: token }, { jar }),
    config,
  )
  jar.update(response)
  return jar
}

async function sessionOf(config: AuthConfig, jar: Jar) {
  const response = await Auth(get("/auth/session", { jar }), config)
  jar.update(response)
  return (await response.json()) as { user?: { email?: string } } | null
}

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  test("another user's session id: refused exactly like an id that does not exist", async () => {
    const { config, adapter } = app(strategy)
    const ada = await signInAs(config, "ada")
    const mallory = await signInAs(config, "mallory")
    // Mallory somehow learnt Ada's session id (a log, a shoulder).
    const [victim] = await adapter.listSessionRecords!(ADA.id!)
    const answers = []
    for (const id of [victim!.id, "0".repeat(32)]) {
      const { token } = await csrfToken(config, mallory)
      const response = await Auth(
        post("/auth/sessions/revoke", { id, csrfToken: token }, { jar: mallory }),
        config,
      )
      answers.push({ status: response.status, body: await response.json() })
    }
    expect(answers[0]).toEqual({ status: 404, body: expect.any(Object) })
    expect(answers[1]).toEqual(answers[0])
    expect((await sessionOf(config, ada))?.user?.email).toBe(ADA.email)
    // And Mallory's list never shows Ada's sessions.
    const listed = await Auth(get("/auth/sessions", { jar: mallory }), config)
    expect(((await listed.json()) as unknown[]).length).toBe(1)
  })

  test("a cross-site form cannot sign the user out everywhere or revoke a session", async () => {
    const { config, adapter } = app(strategy)
    const ada = await signInAs(config, "ada")
    await signInAs(config, "ada")
    const [record] = await adapter.listSessionRecords!(ADA.id!)
    const { token } = await csrfToken(config, ada)
    const forged = [
      // No token at all (the attacker cannot read it).
      post("/auth/signout", { scope: "all" }, { jar: ada }),
      post("/auth/sessions/revoke", { id: record!.id }, { jar: ada }),
      // The right token, but posted from another site.
      post(
        "/auth/signout",
        { scope: "all", csrfToken: token },
        {
          jar: ada,
          headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        },
      ),
      post(
        "/auth/sessions/revoke",
        { id: record!.id, csrfToken: token },
        {
          jar: ada,
          headers: { origin: "https://evil.example" },
        },
      ),
    ]
    for (const request of forged) {
      const response = await Auth(request, config)
      expect([302, 403]).toContain(response.status)
      if (response.status === 302)
        expect(response.headers.get("location")).toContain("error=Signin")
    }
    expect(await adapter.listSessionRecords!(ADA.id!)).toHaveLength(2)
  })

  test("a stolen cookie stops working once its user signs out everywhere", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const { config } = app(strategy)
    const ada = await signInAs(config, "ada")
    const thief = new Jar(Object.fromEntries(await signInAs(config, "ada")))
    expect((await sessionOf(config, thief))?.user?.email).toBe(ADA.email)
    const { token } = await csrfToken(config, ada)
    const out = await Auth(
      post("/auth/signout", { scope: "all", csrfToken: token }, { jar: ada }),
      config,
    )
    expect(out.status).toBe(302)
    // JWT sessions: within revalidateAge (60 s by default).
    vi.setSystemTime(Date.now() + 60_000)
    expect(await sessionOf(config, thief)).toBeNull()
    // Presenting it again later does not bring it back.
    vi.setSystemTime(Date.now() + 3600_000)
    expect(await sessionOf(config, thief)).toBeNull()
  })
})

test("a JWT cookie from before session records (no sid) is not accepted once records are kept", async () => {
  const { config } = app("jwt")
  const { encode } = await import("@tessera/core/jwt")
  const legacy = await encode({
    token: { sub: ADA.id, email: ADA.email, auth_time: Math.floor(Date.now() / 1000) },
    secret: config.secret as string,
    salt: "tessera.session-token",
  })
  const jar = new Jar({ "tessera.session-token": legacy })
  expect(await sessionOf(config, jar)).toBeNull()
})

describe("a released e-mail claim ends the claimant's JWT sessions", () => {
  const VICTIM = "victim@example.org"
  let idp: OidcProviderServer
  beforeAll(async () => {
    idp = await startOidcProvider({
      redirectUris: [`${ORIGIN}/auth/callback/local`],
      // The attacker typed the victim's address at a provider that never checked it.
      accounts: { mallory: { email: VICTIM, email_verified: false, name: "Mallory" } },
    })
  })
  afterAll(() => idp?.stop())

  test("the attacker's session, which showed the victim's address, ends when the victim proves it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const adapter = MemoryAdapter()
    const mailed: string[] = []
    const revoked: string[] = []
    const config: AuthConfig = {
      secret: "test-secret-0123456789abcdef-0123456789abcdef",
      trustHost: true,
      adapter,
      session: { strategy: "jwt" },
      logger: { error() {}, warn() {} },
      events: { sessionRevoked: ({ reason }) => void revoked.push(reason) },
      providers: [
        Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) }),
        localOidcProvider(idp, "local"),
      ],
    }
    const attacker = new Browser(config)
    const start = await attacker.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "mallory" })
    await attacker.request(back.url.pathname + back.url.search)
    expect((await attacker.session()).user.email).toBe(VICTIM)

    const victim = new Browser(config)
    const token = await victim.csrfToken()
    await victim.request("/auth/signin/email", { body: { email: VICTIM, csrfToken: token } })
    const link = new URL(mailed.at(-1)!)
    await victim.request(link.pathname + link.search)
    expect((await victim.session()).user.email).toBe(VICTIM)
    expect(revoked).toEqual(["email-claim-released"])

    vi.setSystemTime(Date.now() + 60_000)
    expect(await attacker.session()).toBeNull()
  })
})
