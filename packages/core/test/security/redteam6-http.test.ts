/**
 * Red team, round 6: the HTTP trust boundaries of `Auth()`.
 *
 * Mail bombing through the e-mail sign-in limit: "5 mails per address per
 * hour" is there so nobody can flood one inbox with sign-in mails. The limit
 * counted the address as written, so `victim+1@`, `victim+2@`, ... (one
 * mailbox wherever sub-addressing is on, as at Gmail and Fastmail), or case
 * variants under an app's own `normalizeIdentifier` that keeps case, each got
 * five mails of their own: without `ipHeader` (no per-IP limit) the inbox got
 * as many as the attacker asked for. The addresses mailed stay as typed.
 *
 * A session cookie in a cacheable response: a browser still holding an
 * Auth.js cookie has it adopted on any auth route, and the answer carries the
 * new session cookie. `GET /auth/providers` (the same JSON for everyone, the
 * first thing a CDN is told to cache) and the redirects to custom pages went
 * out with that `Set-Cookie` and no `Cache-Control`: a shared cache keeping
 * one (CDNs give responses without one a default lifetime, 3xx included)
 * hands the user's session to whoever asks next. Every response that sets a
 * cookie is now `private, no-cache, no-store` unless it says otherwise.
 *
 * The credentials lockout, spelled around: an app's `authorize` usually finds
 * the user in a database, and the common collations (MySQL's default
 * utf8mb4_0900_ai_ci, SQL Server's *_CI_AI, ICU nondeterministic ones) match
 * `ＡＤＡ`, `adá` and `a<zero-width space>da` to "ada". The lockout counted
 * each spelling on its own (trimmed and lower-cased only), so once "ada" was
 * locked, every new spelling bought ten more guesses at her password.
 *
 * Pinned (already safe, not covered elsewhere): the newer state-changing
 * routes (sessions/revoke, two-factor setup/enable/disable, sign-out of every
 * session) refuse a cross-site request even with the victim's valid token,
 * and the route table gives every POST a CSRF rule.
 */
import { readFileSync } from "node:fs"
import { afterEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { MemoryAdapter } from "@tessera/testing"
import { routes } from "../../src/routes.js"
import {
  credentialsProvider,
  csrfToken,
  get,
  Jar,
  makeConfig,
  ORIGIN,
  post,
  setCookies,
  setsSession,
  signIn,
  ADA,
} from "../harness/index.js"
import { codeFor, enableTwoFactor, fakeClock, getJson } from "../two-factor/helpers.js"

const rateLimitedPage = `${ORIGIN}/auth/signin?error=RateLimited`

function mailApp(normalizeIdentifier?: (address: string) => string) {
  const sent: string[] = []
  const { config } = makeConfig({
    adapter: MemoryAdapter(),
    rateLimit: { store: new MemoryRateLimitStore() },
    providers: [
      Email({
        ...(normalizeIdentifier ? { normalizeIdentifier } : {}),
        sendVerificationRequest: ({ identifier }) => void sent.push(identifier),
      }),
    ],
  })
  const request = async (email: string) => {
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post("/auth/signin/email", { email, csrfToken: token }, { jar }),
      config,
    )
    return response.headers.get("location")
  }
  return { sent, request }
}

describe("e-mail sign-in limit: one count per mailbox", () => {
  test("sub-addresses of one mailbox (victim+1@, victim+2@, ...) share its five mails", async () => {
    const { sent, request } = mailApp()
    const answers: Array<string | null> = []
    for (let i = 0; i < 8; i++) answers.push(await request(`victim+${i}@example.com`))
    expect(sent).toHaveLength(5)
    // Each mail went to the address as typed; the sixth request on was refused.
    expect(sent).toEqual([0, 1, 2, 3, 4].map((i) => `victim+${i}@example.com`))
    expect(answers.slice(5)).toEqual([rateLimitedPage, rateLimitedPage, rateLimitedPage])
    // The bare mailbox is the same one.
    expect(await request("victim@example.com")).toBe(rateLimitedPage)
    // Other mailboxes keep their own count.
    expect(await request("victim2@example.com")).not.toBe(rateLimitedPage)
    expect(await request("other+victim@example.com")).not.toBe(rateLimitedPage)
  })

  test("an app's normalizeIdentifier that keeps case does not split the count", async () => {
    const { sent, request } = mailApp((address) => address.trim())
    const spellings = [
      "victim",
      "Victim",
      "VICTIM",
      "vIctim",
      "viCtim",
      "vicTim",
      "victIm",
      "victiM",
    ]
    for (const local of spellings) await request(`${local}@Example.com`)
    expect(sent).toHaveLength(5)
    // Still the app's own identifiers: the address is not changed, only counted once.
    expect(sent[1]).toBe("Victim@Example.com")
  })
})

const authjs = JSON.parse(
  readFileSync(new URL("../fixtures/authjs-session-tokens.json", import.meta.url), "utf8"),
) as Record<"secret" | "plain", string>

/** True when `response` sets a live session cookie (not an expired one). */
const setsSessionCookie = (response: Response) =>
  setCookies(response).some((c) => c.name.startsWith("tessera.session-token") && c.value !== "")

describe("a response that sets a session cookie is never stored by a shared cache", () => {
  test("GET routes where an Auth.js session is adopted: providers, redirects to custom pages", async () => {
    const { config } = makeConfig({
      secret: authjs.secret,
      pages: { signIn: "/login", error: "/oops", signOut: "/bye" },
    })
    for (const path of ["/auth/providers", "/auth/signin", "/auth/error", "/auth/signout"]) {
      const jar = new Jar({ "authjs.session-token": authjs.plain })
      const response = await Auth(get(path, { jar }), config)
      expect(setsSessionCookie(response), path).toBe(true)
      expect(response.headers.get("cache-control"), path).toMatch(/\bno-store\b/)
      expect(response.headers.get("cache-control"), path).toMatch(/\bprivate\b/)
    }
  })

  test("a sign-in's redirect, and its URL as JSON, carry the session and no-store", async () => {
    const { config } = makeConfig()
    const { response } = await signIn(config)
    expect(setsSessionCookie(response)).toBe(true)
    expect(response.headers.get("cache-control")).toMatch(/\bno-store\b/)

    const { token, jar } = await csrfToken(config)
    const fields = { username: "ada", password: "correct horse", csrfToken: token }
    const headers = { "X-Auth-Return-Redirect": "1" }
    const json = await Auth(post("/auth/callback/credentials", fields, { jar, headers }), config)
    expect(setsSessionCookie(json)).toBe(true)
    expect(json.headers.get("cache-control")).toMatch(/\bno-store\b/)
  })

  test("a response without cookies keeps its own caching (the providers list stays cacheable)", async () => {
    const { config } = makeConfig()
    const response = await Auth(get("/auth/providers"), config)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(response.headers.get("cache-control")).toBeNull()
  })
})

/** As a case-, accent- and width-insensitive collation compares (ignorable characters ignored). */
const collate = (value: string) =>
  value
    .normalize("NFKD")
    .replace(/[\p{M}\p{Default_Ignorable_Code_Point}]/gu, "")
    .toLowerCase()
    .trim()

/** An app whose `authorize` looks the user up as its database's collation does. */
function collatingApp(): AuthConfig {
  return makeConfig({
    providers: [
      credentialsProvider({
        authorize: ({ username, password }: Record<string, unknown>) =>
          typeof username === "string" &&
          collate(username) === "ada" &&
          password === "correct horse"
            ? { id: "ada", name: "Ada" }
            : null,
      }),
    ],
    rateLimit: { store: new MemoryRateLimitStore() },
  }).config
}

async function guess(config: AuthConfig, username: string, password: string) {
  const { token, jar } = await csrfToken(config)
  const fields = { username, password, csrfToken: token }
  return Auth(post("/auth/callback/credentials", fields, { jar }), config)
}

describe("credentials lockout: one count per name, however it is spelled", () => {
  test("once ada is locked, no other spelling of her name gets a guess", async () => {
    const config = collatingApp()
    for (let i = 0; i < 10; i++) await guess(config, "ada", `guess ${i}`)
    const spellings = [
      "ＡＤＡ", // fullwidth
      "ada\u0301", // a combining accent after the last a
      "ad\u00e1", // precomposed á
      "a\u200bda", // zero-width space
      "a\u00adda", // soft hyphen
      "ada\ufe0f", // variation selector
      "ADA ", // case and spaces, as before
    ]
    for (const username of spellings) {
      const response = await guess(config, username, "correct horse")
      expect(setsSession(response), JSON.stringify(username)).toBe(false)
      expect(response.headers.get("location"), JSON.stringify(username)).toBe(rateLimitedPage)
    }
  })

  test("different names keep their own counts", async () => {
    const config = collatingApp()
    for (let i = 0; i < 10; i++) await guess(config, "ada", `guess ${i}`)
    const other = await guess(config, "grace", "nope")
    expect(other.headers.get("location")).not.toBe(rateLimitedPage)
  })
})

describe("the newer state-changing routes refuse cross-site requests, token or not", () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  test("sessions/revoke, two-factor setup/enable/disable, signout scope=all: nothing changes", async () => {
    fakeClock()
    const adapter = MemoryAdapter()
    adapter.store.users.set(ADA.id!, {
      ...ADA,
      id: ADA.id!,
      email: ADA.email!,
      emailVerified: null,
    })
    const { config } = makeConfig({ adapter, session: { strategy: "database" } })
    const { jar } = await signIn(config)
    await signIn(config) // a second session of Ada's, elsewhere
    const factor = await enableTwoFactor(config, jar)
    const before = await getJson(config, jar, "/auth/sessions")
    expect(before.body).toHaveLength(2)
    const other = (before.body as Array<{ id: string; current: boolean }>).find((s) => !s.current)!

    const attempts: Array<[string, Record<string, string>]> = [
      ["/auth/sessions/revoke", { id: other.id }],
      ["/auth/two-factor/disable", { code: codeFor(factor.secret) }],
      ["/auth/two-factor/setup", {}],
      ["/auth/two-factor/enable", { code: codeFor(factor.secret) }],
      ["/auth/signout", { scope: "all" }],
    ]
    const crossSite = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }]
    for (const [path, fields] of attempts) {
      for (const headers of crossSite) {
        const { token } = await csrfToken(config, jar)
        const response = await Auth(
          post(path, { ...fields, csrfToken: token }, { jar, headers }),
          config,
        )
        const refused =
          response.status === 403 || /[?&]error=/.test(response.headers.get("location") ?? "")
        expect(refused, `${path} ${JSON.stringify(headers)}`).toBe(true)
        expect(setCookies(response).some((c) => c.name.includes("session-token"))).toBe(false)
      }
      // A simple (no preflight) text/plain post carrying no token: refused as well.
      const plain = await Auth(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: { "content-type": "text/plain", cookie: jar.header() },
          body: new URLSearchParams(fields).toString(),
        }),
        config,
      )
      expect(plain.status === 403 || plain.status === 302, path).toBe(true)
    }
    expect((await getJson(config, jar, "/auth/two-factor/status")).body).toEqual({
      enabled: true,
      pending: false,
    })
    expect((await getJson(config, jar, "/auth/sessions")).body).toEqual(before.body)
  })

  test("every POST in the route table has a CSRF rule; only back-channel logout has none", () => {
    const unchecked = Object.entries(routes)
      .filter(([, route]) => route.POST && route.POST.csrf === false)
      .map(([action]) => action)
    expect(unchecked).toEqual(["backchannel-logout"])
  })
})
