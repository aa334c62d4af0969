/**
 * Red team, round 7: single-use tokens through `Auth()` on the SQL adapter, on
 * a SQLite file and a real PostgreSQL:
 *
 * - one e-mailed link clicked twice at once (two parallel callbacks with the
 *   same token): exactly one session;
 * - one e-mailed code posted twice at once: exactly one session; 12 wrong
 *   codes at once use up its 5 attempts (one row each, taken atomically), and
 *   the right code is refused after;
 * - what the rows hold: neither the link's token nor the code, only keyed hashes;
 * - one passkey answer and challenge cookie sent twice at once: exactly one
 *   session (the used challenge is a verification-token row, and the second
 *   insert of it fails on the primary key);
 * - a passkey counter written lower after higher (a clone racing the original)
 *   stays at the higher value (this failed before: the last write won);
 * - `linkAccount` onto a (provider, providerAccountId) that half exists
 *   (the row is there for another user): refused, the row unchanged.
 * All but the counter held: the tests pin them.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import Email from "@tessera/core/providers/email"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import { testAccount, testAuthenticator, testUser } from "@tessera/testing"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { postgresSchemas } from "../helpers.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const dir = mkdtempSync(join(tmpdir(), "tessera-rt7-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const pgs = postgresSchemas("tessera_rt7")

const engines: [string, () => Promise<SqlAdapterInstance>][] = [
  ["SQLite", async () => SqlAdapter.sqlite(join(dir, `${++files}.db`))],
  ["PostgreSQL", async () => SqlAdapter.postgres(pgs.poolConfig(await pgs.fresh("rt7")))],
]

/** A browser's cookie header and CSRF token. */
async function csrf(config: AuthConfig) {
  const response = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ")
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  return { cookie, csrfToken }
}

const post = (path: string, cookie: string, body: Record<string, string>) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  })

const signsIn = (response: Response) =>
  response.headers.getSetCookie().some((c) => /session-token=[^;]/.test(c))

describe.each(engines)("single-use tokens on %s", (_name, open) => {
  async function withApp(
    method: "link" | "code",
    fn: (app: {
      adapter: SqlAdapterInstance
      config: AuthConfig
      mailed: EmailSendVerificationRequestParams[]
    }) => Promise<void>,
  ) {
    const adapter = await open()
    try {
      await adapter.migrate()
      const mailed: EmailSendVerificationRequestParams[] = []
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        adapter,
        logger: { error() {}, warn() {}, debug() {} },
        // Counters of this app's own, and a high emailCode limit (it cannot be off while codes
        // are mailed): the code's own 5 attempts are what is tested.
        rateLimit: { store: new MemoryRateLimitStore(), emailCode: { max: 1000, window: 900 } },
        providers: [
          Email({
            method,
            sendVerificationRequest: async (params) => void mailed.push(params),
          }),
        ],
      }
      await fn({ adapter, config, mailed })
    } finally {
      await adapter.close()
    }
  }

  async function requestMail(config: AuthConfig, email: string) {
    const { cookie, csrfToken } = await csrf(config)
    const response = await Auth(post("/auth/signin/email", cookie, { email, csrfToken }), config)
    expect(response.status).toBe(302)
  }

  test("one link clicked twice at once: one session; the row held only a hash of the token", () =>
    withApp("link", async ({ adapter, config, mailed }) => {
      await requestMail(config, "ada@example.com")
      const link = new URL(mailed[0]!.url)
      const token = link.searchParams.get("token")!
      const rows = await adapter.db.selectFrom("verification_tokens").selectAll().execute()
      expect(rows).toHaveLength(1)
      expect(rows[0]!.token).not.toContain(token)
      expect(rows[0]!.token).toMatch(/^[0-9a-f]{64}$/)

      const responses = await Promise.all(
        Array.from({ length: 6 }, () => Auth(new Request(link), config)),
      )
      expect(responses.filter(signsIn)).toHaveLength(1)
      const sessions = await adapter.db.selectFrom("sessions").selectAll().execute()
      expect(sessions).toHaveLength(1)
      expect(await adapter.db.selectFrom("verification_tokens").selectAll().execute()).toEqual([])
      expect(await adapter.db.selectFrom("users").selectAll().execute()).toHaveLength(1)
    }))

  test("one code posted twice at once: one session; the rows never hold the code", () =>
    withApp("code", async ({ adapter, config, mailed }) => {
      await requestMail(config, "ada@example.com")
      const code = mailed[0]!.code!
      expect(code).toMatch(/^\d{8}$/)
      const rows = await adapter.db.selectFrom("verification_tokens").selectAll().execute()
      for (const row of rows) {
        expect(row.token).not.toContain(code)
        expect(row.identifier).not.toContain(code)
      }
      const browsers = await Promise.all(Array.from({ length: 4 }, () => csrf(config)))
      const responses = await Promise.all(
        browsers.map(({ cookie, csrfToken }) =>
          Auth(
            post("/auth/callback/email", cookie, {
              email: "ada@example.com",
              code,
              csrfToken,
            }),
            config,
          ),
        ),
      )
      expect(responses.filter(signsIn)).toHaveLength(1)
      expect(await adapter.db.selectFrom("sessions").selectAll().execute()).toHaveLength(1)
    }))

  test("a code's 5 attempts hold against 12 parallel guesses: the right code is refused after", () =>
    withApp("code", async ({ adapter, config, mailed }) => {
      await requestMail(config, "ada@example.com")
      const code = mailed[0]!.code!
      const wrong = (n: number) => String((Number(code) + n) % 10 ** 8).padStart(8, "0")
      const browsers = await Promise.all(Array.from({ length: 12 }, () => csrf(config)))
      const guesses = await Promise.all(
        browsers.map(({ cookie, csrfToken }, i) =>
          Auth(
            post("/auth/callback/email", cookie, {
              email: "ada@example.com",
              code: wrong(i + 1),
              csrfToken,
            }),
            config,
          ),
        ),
      )
      expect(guesses.filter(signsIn)).toEqual([])
      const { cookie, csrfToken } = await csrf(config)
      const right = await Auth(
        post("/auth/callback/email", cookie, { email: "ada@example.com", code, csrfToken }),
        config,
      )
      expect(signsIn(right)).toBe(false)
      expect(await adapter.db.selectFrom("sessions").selectAll().execute()).toEqual([])
    }))

  test("linkAccount onto a provider account that half exists (another user's row) is refused and changes nothing", async () => {
    const adapter = await open()
    try {
      await adapter.migrate()
      const victim = await adapter.createUser(testUser({ email: "victim@example.com" }))
      const attacker = await adapter.createUser(testUser({ email: "attacker@example.com" }))
      const account = testAccount(victim.id, { provider: "github" })
      await adapter.linkAccount(account)
      await expect(adapter.linkAccount({ ...account, userId: attacker.id })).rejects.toThrow()
      expect(await adapter.getUserByAccount(account)).toMatchObject({ id: victim.id })
      const rows = await adapter.db.selectFrom("accounts").selectAll().execute()
      expect(rows).toHaveLength(1)
      // A passkey's account row without its authenticator (a crash between the two writes):
      // the credential id is not registered, and linking it again for another user fails too.
      const passkey = { ...account, provider: "passkey", type: "webauthn" as const }
      await adapter.linkAccount({ ...passkey, providerAccountId: "cred-1" })
      expect(await adapter.getAuthenticator("cred-1")).toBeNull()
      await expect(
        adapter.linkAccount({ ...passkey, providerAccountId: "cred-1", userId: attacker.id }),
      ).rejects.toThrow()
    } finally {
      await adapter.close()
    }
  })

  test("a passkey counter never goes back: a lower count written after a higher one is ignored", async () => {
    const adapter = await open()
    try {
      await adapter.migrate()
      const user = await adapter.createUser(testUser())
      const authenticator = testAuthenticator(user.id)
      await adapter.createAuthenticator({ ...authenticator, counter: 5 })
      const both = await Promise.all([
        adapter.updateAuthenticatorCounter(authenticator.credentialID, 10),
        adapter.updateAuthenticatorCounter(authenticator.credentialID, 7),
      ])
      expect(both.map((a) => a.counter).sort()).toContain(10)
      expect((await adapter.getAuthenticator(authenticator.credentialID))?.counter).toBe(10)
      expect(
        (await adapter.updateAuthenticatorCounter(authenticator.credentialID, 8)).counter,
      ).toBe(10)
      expect((await adapter.getAuthenticator(authenticator.credentialID))?.counter).toBe(10)
      await expect(adapter.updateAuthenticatorCounter("nobody", 3)).rejects.toThrow()
    } finally {
      await adapter.close()
    }
  })

  test("a used passkey challenge recorded twice at once: exactly one insert wins", async () => {
    const adapter = await open()
    try {
      await adapter.migrate()
      const token = {
        identifier: "webauthn-used:passkey",
        token: "a".repeat(64),
        expires: new Date(Date.now() + 60_000),
      }
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, () => adapter.createVerificationToken(token)),
      )
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
    } finally {
      await adapter.close()
    }
  })
})
