/**
 * Red team, round 15: the VK provider. VK (oauth.vk.com) sends the user's e-mail in the token
 * response, beside `user_id`, with nothing saying it checked the address; the profile comes from
 * `users.get` (`{ response: [user] }`, or `{ error }` with status 200). The rule under attack: an
 * unverified e-mail never identifies an account. Every attack drives `Auth()` through Requests
 * against a FakeIssuer answering as oauth.vk.com and api.vk.com (reached through customFetch):
 *
 * - the e-mail of the token response is a claim: it neither links to the victim's account (with
 *   or without `allowDangerousEmailAccountLinking`) nor creates a user whose `emailVerified` is
 *   set, and the victim's later e-mail sign-in takes the address back;
 * - a token response for one VK user beside a `users.get` profile of another;
 * - hostile values in both answers: each ends in an error redirect, never a 500, never a row;
 * - `state` (VK's only check): missing, another browser's, replayed; a `device_id` (VK ID's
 *   callback parameter) is never echoed anywhere.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest"
import { customFetch, type AuthConfig } from "@tessera/core"
import type { AdapterUser } from "@tessera/core/adapters"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import Email from "@tessera/core/providers/email"
import VK, { type VkProfile } from "@tessera/core/providers/vk"
import {
  AppBrowser,
  FakeIssuer,
  json,
  MemoryAdapter,
  setsSession,
  StandIn,
  type CodeRecord,
} from "@tessera/testing"
import { recordingLogger, SECRET } from "../harness/index.js"

const ORIGIN = "http://localhost:3000"
const VICTIM = "victim@mail.test"

const profileOf = (id: number, first_name: string): VkProfile => ({
  id,
  first_name,
  last_name: "",
  can_access_closed: true,
  is_closed: false,
  photo_100: `https://sun.userapi.example/${id}.jpg`,
})
const ATTACKER = profileOf(666, "Mallory")
const OTHER = profileOf(777, "Bob")

let standIn: StandIn
let vk: FakeIssuer
/** What oauth.vk.com answers to the code exchange (a body sent with 200, or a whole Response). */
let tokenAnswer: (record: CodeRecord) => Record<string, unknown> | Response
/** What api.vk.com's users.get answers. */
let usersGet: () => Response

function resetVk() {
  tokenAnswer = () => ({
    access_token: `vk1.a.${crypto.randomUUID()}`,
    expires_in: 86400,
    user_id: ATTACKER.id,
    email: VICTIM,
  })
  usersGet = () => json({ response: [ATTACKER] })
}

beforeAll(async () => {
  standIn = await StandIn.start()
  vk = await FakeIssuer.create({
    standIn,
    issuer: "https://oauth.vk.com",
    authorizationEndpoint: "https://oauth.vk.com/authorize",
    tokenEndpoint: "https://oauth.vk.com/access_token",
    userinfoEndpoint: "https://api.vk.com/method/users.get",
    discovery: false,
    clientId: "51234567",
    clientSecret: "vk-app-secret",
    authMethod: "client_secret_post",
    tokenResponse: (record) => tokenAnswer(record),
    userinfo: () => usersGet(),
  })
})
afterAll(() => standIn?.stop())
beforeEach(resetVk)

/** An app with VK and e-mail sign-in on a memory adapter; the victim's verified account if asked. */
async function app(
  options: { linking?: boolean; victim?: boolean; strategy?: "jwt" | "database" } = {},
) {
  const adapter = MemoryAdapter()
  const mailed: EmailSendVerificationRequestParams[] = []
  const log = recordingLogger()
  if (options.victim ?? true)
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
    session: { strategy: options.strategy ?? "database" },
    logger: { ...log.logger, warn() {} },
    debug: true,
    callbacks: {
      session: ({ session, token, user }) => ({
        ...session,
        user: { ...session.user, id: (user?.id ?? token?.sub) as string },
      }),
    },
    providers: [
      VK({
        clientId: "51234567",
        clientSecret: "vk-app-secret",
        allowDangerousEmailAccountLinking: options.linking ?? false,
        [customFetch]: standIn.fetch,
      }),
      Email({ sendVerificationRequest: (params) => void mailed.push(params) }),
    ],
  }
  return { config, adapter, store: adapter.store, mailed, log }
}

/** Signs in with VK in a fresh browser (the code is the attacker's, approved at VK). */
async function signInWithVk(config: AuthConfig, browser = new AppBrowser(config, ORIGIN)) {
  const start = await browser.startSignIn("vk")
  const location = new URL(start.headers.get("location")!)
  const done = await browser.request(vk.authorize(location, "mallory").href)
  return { browser, start, location, done }
}

const vkAccounts = (store: ReturnType<typeof MemoryAdapter>["store"]) =>
  [...store.accounts.values()].filter((account) => account.provider === "vk")

describe("VK's e-mail (token response) is a claim, never an identity", () => {
  test.each([false, true])(
    "allowDangerousEmailAccountLinking: %s: the victim's address does not link the attacker's VK account",
    async (linking) => {
      const { config, store } = await app({ linking })
      const { done } = await signInWithVk(config)
      expect(done.status).toBe(302)
      expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`)
      expect(setsSession(done)).toBe(false)
      expect(vkAccounts(store)).toEqual([])
      expect(store.users.size).toBe(1)
      expect(store.sessions.size).toBe(0)
    },
  )

  test("no one holds the address: the VK user gets it unverified, and it finds no one afterwards", async () => {
    const { config, store, mailed } = await app({ victim: false })
    const { browser: attacker, done } = await signInWithVk(config)
    expect(setsSession(done)).toBe(true)
    const [claimant] = [...store.users.values()]
    expect(claimant).toMatchObject({ email: VICTIM, emailVerified: null })
    expect((await attacker.session()).user.email).toBe(VICTIM)

    // The owner signs in by e-mail: the link is theirs, and so is a new account.
    const owner = new AppBrowser(config, ORIGIN)
    const csrfToken = await owner.csrf()
    await owner.request("/auth/signin/email", { body: { email: VICTIM, csrfToken } })
    expect(mailed.map((m) => m.identifier)).toEqual([VICTIM])
    const link = new URL(mailed[0]!.url)
    const followed = await owner.request(link.pathname + link.search)
    expect(setsSession(followed)).toBe(true)
    const session = await owner.session()
    expect(session.user.email).toBe(VICTIM)
    expect(session.user.id).not.toBe(claimant!.id)
    // The claim was released, the VK user's sessions ended.
    expect(store.users.get(claimant!.id)!.email).toBeNull()
    expect(await attacker.session()).toBeNull()
    expect(store.users.get(session.user.id)!.emailVerified).toBeInstanceOf(Date)
  })

  test("a second VK account claiming the same address gets none, and links to no one", async () => {
    const { config, store } = await app({ victim: false })
    expect(setsSession((await signInWithVk(config)).done)).toBe(true)
    tokenAnswer = () => ({ access_token: "vk1.a.other", user_id: OTHER.id, email: VICTIM })
    usersGet = () => json({ response: [OTHER] })
    const { done } = await signInWithVk(config)
    expect(setsSession(done)).toBe(true)
    const users = [...store.users.values()]
    expect(users).toHaveLength(2)
    expect(users.map((u) => u.email).sort()).toEqual([null, VICTIM].sort())
    expect(new Set(vkAccounts(store).map((a) => a.userId)).size).toBe(2)
  })
})

describe("the token response's user_id against the users.get profile", () => {
  test("a token response for one VK user with the profile of another: refused, nothing stored", async () => {
    const { config, store, log } = await app({ victim: false })
    tokenAnswer = () => ({ access_token: "vk1.a.t", user_id: ATTACKER.id, email: "m@mail.test" })
    usersGet = () => json({ response: [OTHER] })
    const { done } = await signInWithVk(config)
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
    expect(setsSession(done)).toBe(false)
    expect(store.users.size).toBe(0)
    expect(store.accounts.size).toBe(0)
    expect(log.logged.length).toBeGreaterThan(0)
    expect(JSON.stringify(log.logged)).not.toContain("vk1.a.t")
  })
})

/** Hostile answers: each is an error redirect, with no session and no row. */
const hostile: Array<[string, () => void]> = [
  [
    "user_id not a number",
    () => void (tokenAnswer = () => ({ access_token: "t", user_id: "abc" })),
  ],
  ["user_id an array", () => void (tokenAnswer = () => ({ access_token: "t", user_id: [666] }))],
  ["user_id past 2^53", () => void (tokenAnswer = () => ({ access_token: "t", user_id: 2 ** 60 }))],
  ["user_id negative", () => void (tokenAnswer = () => ({ access_token: "t", user_id: -666 }))],
  [
    "email an array",
    () => void (tokenAnswer = () => ({ access_token: "t", user_id: 666, email: [VICTIM] })),
  ],
  [
    "email an object",
    () => void (tokenAnswer = () => ({ access_token: "t", user_id: 666, email: { VICTIM } })),
  ],
  ["no access_token", () => void (tokenAnswer = () => ({ user_id: 666, email: VICTIM }))],
  [
    "the token endpoint's HTML error page",
    () =>
      void (tokenAnswer = () =>
        new Response("<html><body>502 Bad Gateway</body></html>", {
          status: 502,
          headers: { "content-type": "text/html" },
        })),
  ],
  [
    "the token endpoint's HTML page with status 200",
    () =>
      void (tokenAnswer = () =>
        new Response("<html>Service unavailable</html>", {
          headers: { "content-type": "text/html" },
        })),
  ],
  [
    "users.get { error } with status 200",
    () =>
      void (usersGet = () =>
        json({ error: { error_code: 5, error_msg: "User authorization failed" } })),
  ],
  ["users.get { error: 'text' }", () => void (usersGet = () => json({ error: "oops" }))],
  [
    "users.get HTML page with status 200",
    () =>
      void (usersGet = () =>
        new Response("<html>captcha</html>", { headers: { "content-type": "text/html" } })),
  ],
  [
    "users.get HTML page with status 500",
    () => void (usersGet = () => new Response("<html>down</html>", { status: 500 })),
  ],
  ["users.get without response", () => void (usersGet = () => json({}))],
  ["users.get with response []", () => void (usersGet = () => json({ response: [] }))],
  ["users.get with response {}", () => void (usersGet = () => json({ response: {} }))],
  ["users.get with response 'x'", () => void (usersGet = () => json({ response: "x" }))],
  ["users.get with response [null]", () => void (usersGet = () => json({ response: [null] }))],
  ["users.get with response [[]]", () => void (usersGet = () => json({ response: [[ATTACKER]] }))],
  ["users.get JSON null", () => void (usersGet = () => json(null))],
  ["users.get JSON array", () => void (usersGet = () => json([ATTACKER]))],
  [
    "users.get profile without id",
    () => void (usersGet = () => json({ response: [{ ...ATTACKER, id: undefined }] })),
  ],
  [
    "users.get profile id an array",
    () => void (usersGet = () => json({ response: [{ ...ATTACKER, id: [666] }] })),
  ],
  [
    "users.get profile id an object",
    () => void (usersGet = () => json({ response: [{ ...ATTACKER, id: { toString: 1 } }] })),
  ],
  [
    "users.get profile id a fraction",
    () => void (usersGet = () => json({ response: [{ ...ATTACKER, id: 666.5 }] })),
  ],
  [
    "users.get profile id past 2^53",
    () => {
      tokenAnswer = () => ({ access_token: "t", email: VICTIM })
      usersGet = () => json({ response: [{ ...ATTACKER, id: 2 ** 60 }] })
    },
  ],
]

describe("hostile answers from oauth.vk.com and api.vk.com", () => {
  test.each(hostile)("%s: an error redirect, no session, no row", async (_, arrange) => {
    const { config, store, log } = await app({ victim: false })
    arrange()
    const { done } = await signInWithVk(config)
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toMatch(
      new RegExp(`^${ORIGIN}/auth/(signin\\?error=OAuthCallbackError|error\\?error=Configuration)`),
    )
    expect(setsSession(done)).toBe(false)
    expect(store.users.size).toBe(0)
    expect(store.accounts.size).toBe(0)
    expect(store.sessions.size).toBe(0)
    expect(log.logged.length).toBeGreaterThan(0)
  })
})

describe("state, VK's only check", () => {
  test("a callback without state, with another browser's state, or replayed: refused before the code is spent", async () => {
    const { config, store } = await app({ victim: false })
    const victim = new AppBrowser(config, ORIGIN)
    const start = await victim.startSignIn("vk")
    const location = new URL(start.headers.get("location")!)

    // The attacker's own code, sent to the victim's browser without state, or with the attacker's.
    const attacker = new AppBrowser(config, ORIGIN)
    const attackerStart = await attacker.startSignIn("vk")
    const attackerCallback = vk.authorize(new URL(attackerStart.headers.get("location")!), "m")
    const tokenRequests = () => standIn.requestsTo("https://oauth.vk.com/access_token").length
    const before = tokenRequests()
    const withoutState = new URL(attackerCallback)
    withoutState.searchParams.delete("state")
    for (const callback of [withoutState, attackerCallback]) {
      const done = await victim.request(callback.href)
      expect(done.headers.get("location")).toMatch(/\/auth\/signin\?error=/)
      expect(setsSession(done)).toBe(false)
    }
    expect(tokenRequests()).toBe(before)

    // The refused callback ended the victim's sign-in (its check cookies are gone): a new one
    // works, once.
    expect(setsSession(await victim.request(vk.authorize(location, "v").href))).toBe(false)
    const restart = await victim.startSignIn("vk")
    const own = vk.authorize(new URL(restart.headers.get("location")!), "v")
    expect(setsSession(await victim.request(own.href))).toBe(true)
    const replay = await new AppBrowser(config, ORIGIN).request(own.href)
    expect(setsSession(replay)).toBe(false)
    expect(store.accounts.size).toBe(1)
  })

  test("a device_id in the callback (VK ID) is not echoed into any URL or request", async () => {
    const { config } = await app({ victim: false })
    const browser = new AppBrowser(config, ORIGIN)
    const start = await browser.startSignIn("vk", { query: { device_id: "evil.example" } })
    const location = new URL(start.headers.get("location")!)
    expect(location.origin).toBe("https://oauth.vk.com")
    const callback = vk.authorize(location, "mallory", { device_id: "https://evil.example/x" })
    const done = await browser.request(callback.href)
    expect(setsSession(done)).toBe(true)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/`)
    const token = standIn.requestsTo("https://oauth.vk.com/access_token").at(-1)!
    expect(token.body).not.toContain("evil.example")
    expect(token.url.href).not.toContain("evil.example")
  })
})
