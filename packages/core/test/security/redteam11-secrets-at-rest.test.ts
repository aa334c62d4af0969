/**
 * Red team 11: secrets at rest and single use under races, through `Auth()`
 * on the SQL adapter, on a SQLite file and a real PostgreSQL, with database
 * sessions, second factors and the SQL rate-limit store.
 *
 * - At rest: after signing in with an e-mailed link, an e-mailed code, a
 *   password plus a TOTP code and a password plus a recovery code, with wrong
 *   guesses counted by every limit, no table holds the link's token, a code,
 *   a recovery code, the TOTP key (in any encoding), a session token from a
 *   cookie, the password, or an e-mail address in a rate-limit key.
 * - Races: one e-mailed link clicked, or one e-mailed code posted, 30 times
 *   at once: one session each. One recovery code, or one TOTP code (a replay within its step),
 *   sent from 20 waiting sign-ins at once: exactly one session. 30 wrong codes
 *   at once against the `twoFactor` limit (5): at most 5 are checked, and the
 *   right code is refused after.
 * - OAuth through oidc-provider: no state, nonce, PKCE challenge, code or
 *   session token in any table; the provider's access, refresh and ID tokens
 *   are in `accounts` as issued (Auth.js's columns: documented, not changed).
 * - Logs (every level, `debug: true`) hold none of these either, nor the
 *   provider's tokens.
 * All held when tested: pinned.
 */
import { encodeBase32NoPadding, encodeBase64, encodeBase64url } from "@oslojs/encoding"
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import { sql } from "kysely"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import type { SqlAdapterInstance } from "@tessera/sql"
import { completeOidcLogin, startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import {
  ADA,
  Browser,
  credentialsProvider,
  csrfToken,
  get,
  Jar,
  ORIGIN,
  post,
  sessionCookieName,
  SECRET,
  signIn,
} from "../harness/index.js"
import { PostgresFixture, sqliteBackend, type Backend } from "../harness/backends.js"
import { codeFor, enableTwoFactor, fakeClock, session, submitCode } from "../two-factor/helpers.js"

const sha256 = async (value: string) =>
  Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value))).toString(
    "hex",
  )

const pg = new PostgresFixture()
let idp: OidcProviderServer
beforeAll(async () => {
  ;[idp] = await Promise.all([
    startOidcProvider({
      redirectUris: [`${ORIGIN}/auth/callback/idp`],
      accounts: { ada: { name: "Ada Lovelace", email: ADA.email! } },
    }),
    pg.start(),
  ])
}, 120_000)
afterAll(() => Promise.all([pg.stop(), idp?.stop()]))

type SqlBackend = Backend & { sql: SqlAdapterInstance }

/** Every log line, every level, with its metadata (errors with their causes), as text. */
function textLogger() {
  const lines: string[] = []
  const text = (value: unknown): string =>
    value instanceof Error
      ? `${value.name} ${value.message} ${value.stack} ${text((value as { cause?: unknown }).cause)}`
      : (JSON.stringify(value, (_, v: unknown) => (v instanceof Error ? text(v) : v)) ?? "")
  const record = (...args: unknown[]) => void lines.push(args.map(text).join(" "))
  return { lines, logger: { error: record, warn: record, debug: record } }
}
const engines: [string, () => Promise<SqlBackend>][] = [
  [
    "SQLite",
    async () => {
      const backend = await sqliteBackend()
      return { ...backend, sql: backend.adapter as SqlAdapterInstance }
    },
  ],
  ["PostgreSQL", () => pg.backend()],
]

/** Every value of every table, as text. */
async function dump(backend: SqlBackend): Promise<string[]> {
  const db = backend.sql.db
  const tables =
    backend.name === "sqlite"
      ? (
          await sql<{
            name: string
          }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
            db,
          )
        ).rows.map((r) => r.name)
      : (
          await sql<{
            name: string
          }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
            db,
          )
        ).rows.map((r) => r.name)
  expect(tables).toEqual(expect.arrayContaining(["sessions", "two_factors", "rate_limits"]))
  const values: string[] = []
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)
    for (const row of rows.rows)
      for (const value of Object.values(row)) {
        if (value === null || value === undefined) continue
        values.push(
          value instanceof Uint8Array
            ? Buffer.from(value).toString("hex")
            : value instanceof Date
              ? value.toISOString()
              : String(value),
        )
      }
  }
  return values
}

describe.each(engines)("secrets at rest and single use on %s", (_name, open) => {
  let backend: SqlBackend
  let mailed: EmailSendVerificationRequestParams[]
  beforeEach(async () => {
    fakeClock()
    backend = await open()
    mailed = []
    await backend.adapter.createUser!({
      ...ADA,
      id: ADA.id!,
      email: ADA.email!,
      emailVerified: null,
    })
  })
  afterEach(async () => {
    vi.useRealTimers()
    await backend.close()
  })

  let logs: ReturnType<typeof textLogger>
  function configFor(rateLimit: AuthConfig["rateLimit"] = {}): AuthConfig {
    logs = textLogger()
    return {
      debug: true,
      secret: SECRET,
      trustHost: true,
      adapter: backend.adapter,
      session: { strategy: "database" },
      logger: logs.logger,
      rateLimit:
        rateLimit === false ? false : { store: backend.sql.rateLimitStore(), ...rateLimit },
      providers: [
        // Ada's stored user, whatever id the adapter gave her.
        credentialsProvider({
          authorize: async ({ username, password }: Record<string, unknown>) =>
            username === "ada" && password === "correct horse"
              ? backend.adapter.getUserByEmail!(ADA.email!)
              : null,
        }),
        Email({
          method: "both",
          sendVerificationRequest: async (params) => void mailed.push(params),
        }),
      ],
    }
  }

  async function requestMail(config: AuthConfig, email: string) {
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post("/auth/signin/email", { email, csrfToken: token }, { jar }),
      config,
    )
    expect(response.status).toBe(302)
    return mailed.at(-1)!
  }

  async function postCode(config: AuthConfig, email: string, code: string, jar = new Jar()) {
    const { token } = await csrfToken(config, jar)
    const response = await Auth(
      post("/auth/callback/email", { email, code, csrfToken: token }, { jar }),
      config,
    )
    jar.update(response)
    return { response, jar }
  }

  /** Waiting sign-ins of Ada (password given, second factor to come), each in a browser of its own. */
  async function waitingSignIns(config: AuthConfig, count: number) {
    const jars: Jar[] = []
    for (let i = 0; i < count; i++) {
      const { response, jar } = await signIn(config)
      expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
      jars.push(jar)
    }
    return jars
  }

  const signedIn = async (config: AuthConfig, jar: Jar) =>
    ((await session(config, jar)) as { user?: { email?: string } } | null)?.user?.email

  test("no table holds a token, a code, a recovery code, the TOTP key, a session token or an address", async () => {
    const config = configFor()
    const secrets: string[] = []
    const sessionTokens: string[] = []
    const keepSession = (jar: Jar) => {
      const token = jar.get(sessionCookieName())
      expect(token).toBeTruthy()
      sessionTokens.push(token!)
    }

    // An e-mailed link.
    const linkMail = await requestMail(config, ADA.email!)
    const link = new URL(linkMail.url)
    secrets.push(link.searchParams.get("token")!, linkMail.code!)
    const linkJar = new Jar()
    linkJar.update(await Auth(get(`${link.pathname}${link.search}`, { jar: linkJar }), config))
    expect(await signedIn(config, linkJar)).toBe(ADA.email)
    keepSession(linkJar)

    // An e-mailed code, after a wrong one (counted by `emailCode`).
    const codeMail = await requestMail(config, ADA.email!)
    secrets.push(codeMail.code!, new URL(codeMail.url).searchParams.get("token")!)
    const wrongCode = String((Number(codeMail.code) + 1) % 10 ** 8).padStart(8, "0")
    expect(await signedIn(config, (await postCode(config, ADA.email!, wrongCode)).jar)).toBe(
      undefined,
    )
    const { jar: codeJar } = await postCode(config, ADA.email!, codeMail.code!)
    expect(await signedIn(config, codeJar)).toBe(ADA.email)
    keepSession(codeJar)

    // A second factor, then the password and a TOTP code, and the password and a recovery code.
    const factor = await enableTwoFactor(config, codeJar)
    const key = decodeBase32IgnorePadding(factor.secret)
    secrets.push(
      factor.secret,
      encodeBase32NoPadding(key).toLowerCase(),
      Buffer.from(key).toString("hex"),
      encodeBase64(key),
      encodeBase64url(key),
      ...factor.recoveryCodes,
      ...factor.recoveryCodes.map((c) => c.replace("-", "")),
    )
    vi.setSystemTime(Date.now() + 30_000)
    const [totpJar, recoveryJar] = await waitingSignIns(config, 2)
    expect((await submitCode(config, totpJar!, "000000")).status).toBe(302)
    await submitCode(config, totpJar!, codeFor(factor.secret))
    expect(await signedIn(config, totpJar!)).toBe(ADA.email)
    keepSession(totpJar!)
    await submitCode(config, recoveryJar!, factor.recoveryCodes[3]!)
    expect(await signedIn(config, recoveryJar!)).toBe(ADA.email)
    keepSession(recoveryJar!)

    // A wrong password, counted by `credentials` under the identifier.
    await signIn(config, { username: "ada", password: "wrong" })
    await signIn(config, { username: ADA.email!, password: "wrong" })

    const values = await dump(backend)
    // The control: the dump does read the sessions, which hold SHA-256 of each cookie's token.
    for (const token of sessionTokens) expect(values).toContain(await sha256(token))
    const rateLimitKeys = (
      await backend.sql.db.selectFrom("rate_limits").selectAll().execute()
    ).map((row) => Object.values(row).join(" "))
    expect(rateLimitKeys.length).toBeGreaterThan(0)
    for (const row of rateLimitKeys) {
      expect(row).not.toMatch(/ada|example\.com|@/i)
    }
    for (const secret of [...secrets, ...sessionTokens, "correct horse", "wrong"]) {
      for (const value of values)
        expect(value, `a stored value holds ${secret}`).not.toContain(secret)
    }
    // The TOTP key is stored sealed (AES-GCM under a key from the secret), bound to its user.
    const factorRow = await backend.sql.db.selectFrom("two_factors").selectAll().executeTakeFirst()
    expect(factorRow!.secret).toMatch(/^v1\.[^.]+\.[\w-]+\.[\w-]+$/)
  })

  test("one link clicked 30 times at once, one code posted from 30 browsers at once: one session each", async () => {
    const config = configFor({ emailCode: { max: 1000, window: 900 } })
    const mail = await requestMail(config, ADA.email!)
    const link = new URL(mail.url)
    const clicks = Array.from({ length: 30 }, () => new Jar())
    await Promise.all(
      clicks.map(async (jar) =>
        jar.update(await Auth(get(`${link.pathname}${link.search}`, { jar }), config)),
      ),
    )
    const linked = await Promise.all(clicks.map((jar) => signedIn(config, jar)))
    expect(linked.filter((e) => e === ADA.email)).toHaveLength(1)

    const code = (await requestMail(config, ADA.email!)).code!
    const browsers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const jar = new Jar()
        return { jar, token: (await csrfToken(config, jar)).token }
      }),
    )
    await Promise.all(
      browsers.map(async ({ jar, token }) =>
        jar.update(
          await Auth(
            post("/auth/callback/email", { email: ADA.email!, code, csrfToken: token }, { jar }),
            config,
          ),
        ),
      ),
    )
    const coded = await Promise.all(browsers.map(({ jar }) => signedIn(config, jar)))
    expect(coded.filter((e) => e === ADA.email)).toHaveLength(1)
    expect(await backend.sql.db.selectFrom("sessions").selectAll().execute()).toHaveLength(2)
  })

  test("one recovery code from 20 waiting sign-ins at once: one session, the code gone", async () => {
    // A high limit, so that every request reaches the adapter's atomic use of the code.
    const config = configFor({ twoFactor: { max: 1000, window: 900 } })
    const { jar: ownerJar } = await postCode(
      config,
      ADA.email!,
      (await requestMail(config, ADA.email!)).code!,
    )
    const factor = await enableTwoFactor(config, ownerJar)
    const jars = await waitingSignIns(config, 20)
    const code = factor.recoveryCodes[0]!
    await Promise.all(jars.map((jar) => submitCode(config, jar, code)))
    const emails = await Promise.all(jars.map((jar) => signedIn(config, jar)))
    expect(emails.filter((e) => e === ADA.email)).toHaveLength(1)
    const codes = await backend.sql.db.selectFrom("two_factor_recovery_codes").selectAll().execute()
    expect(codes).toHaveLength(9)
  })

  test("one TOTP code from 20 waiting sign-ins at once (a replay in its step): one session", async () => {
    const config = configFor({ twoFactor: { max: 1000, window: 900 } })
    const { jar: ownerJar } = await postCode(
      config,
      ADA.email!,
      (await requestMail(config, ADA.email!)).code!,
    )
    const factor = await enableTwoFactor(config, ownerJar)
    vi.setSystemTime(Date.now() + 30_000)
    const jars = await waitingSignIns(config, 20)
    const code = codeFor(factor.secret)
    await Promise.all(jars.map((jar) => submitCode(config, jar, code)))
    const emails = await Promise.all(jars.map((jar) => signedIn(config, jar)))
    expect(emails.filter((e) => e === ADA.email)).toHaveLength(1)
    // And the same code later in its step, from a fresh waiting sign-in: refused.
    const [late] = await waitingSignIns(config, 1)
    vi.setSystemTime(Date.now() + 5_000)
    expect((await submitCode(config, late!, code)).headers.get("location")).toContain(
      "error=TwoFactor",
    )
    expect(await signedIn(config, late!)).toBe(undefined)
  })

  test("30 wrong codes at once against the twoFactor limit: at most 5 checked, the right code refused after", async () => {
    const config = configFor()
    const { jar: ownerJar } = await postCode(
      config,
      ADA.email!,
      (await requestMail(config, ADA.email!)).code!,
    )
    const factor = await enableTwoFactor(config, ownerJar)
    vi.setSystemTime(Date.now() + 30_000)
    const jars = await waitingSignIns(config, 30)
    const wrong = codeFor(factor.secret, Date.now(), 10)
    const answers = await Promise.all(
      jars.map((jar, i) => submitCode(config, jar, i % 2 ? wrong : "aaaaa-bbbbb")),
    )
    const locations = answers.map((r) => r.headers.get("location") ?? "")
    const checked = locations.filter((l) => /error=TwoFactor(&|$)/.test(l))
    const limited = locations.filter((l) => l.includes("error=RateLimited"))
    expect(checked.length).toBeLessThanOrEqual(5)
    expect(checked.length + limited.length).toBe(30)
    const right = await submitCode(config, jars[0]!, codeFor(factor.secret))
    expect(right.headers.get("location")).toContain("error=RateLimited")
    const recovery = await submitCode(config, jars[1]!, factor.recoveryCodes[0]!)
    expect(recovery.headers.get("location")).toContain("error=RateLimited")
    expect(await signedIn(config, jars[0]!)).toBe(undefined)
    expect(
      await backend.sql.db.selectFrom("two_factor_recovery_codes").selectAll().execute(),
    ).toHaveLength(10)
  })
})

describe.each(engines)("OAuth sign-in at rest on %s", (_name, open) => {
  test("no state, nonce or PKCE value, nor the session token, in any table; the provider's tokens as Auth.js stores them", async () => {
    const backend = await open()
    try {
      const logs = textLogger()
      const config: AuthConfig = {
        debug: true,
        secret: SECRET,
        trustHost: true,
        adapter: backend.adapter,
        session: { strategy: "database" },
        logger: logs.logger,
        providers: [
          {
            id: "idp",
            name: "IdP",
            type: "oidc",
            issuer: idp.issuer,
            clientId: idp.clientId,
            clientSecret: idp.clientSecret,
            checks: ["pkce", "state", "nonce"],
            dangerouslyAllowInsecureHttpRequests: true,
          } as never,
        ],
      }
      const browser = new Browser(config)
      const start = await browser.startSignIn("idp")
      const authorize = new URL(start.headers.get("location")!)
      const flowValues = ["state", "nonce", "code_challenge"].map((name) =>
        authorize.searchParams.get(name)!,
      )
      expect(flowValues.every((v) => v && v.length >= 32)).toBe(true)
      const back = await completeOidcLogin(authorize.href, { accountId: "ada" })
      const code = new URL(back.url).searchParams.get("code")!
      await browser.request(back.url.href)
      expect((await browser.session())?.user?.email).toBe(ADA.email)
      const token = browser.jar.get(sessionCookieName())!
      expect(token).toMatch(/^[0-9a-f]{64}$/)

      const values = await dump(backend)
      expect(values).toContain(await sha256(token))
      for (const secret of [...flowValues, code, token, idp.clientSecret])
        for (const value of values)
          expect(value, `a stored value holds ${secret}`).not.toContain(secret)
      const account = await backend.sql.db.selectFrom("accounts").selectAll().executeTakeFirst()
      const issued = [account?.access_token, account?.id_token, account?.refresh_token]
      expect(logs.lines.length).toBeGreaterThan(0)
      for (const secret of [...flowValues, code, token, idp.clientSecret, ...issued])
        if (secret)
          for (const line of logs.lines)
            expect(line, `a log line holds ${secret}`).not.toContain(secret)
      // The Auth.js contract: the provider's tokens in the accounts row as issued (the app's
      // `getAccessToken` and RP-initiated logout need them); documented in SECURITY.md.
      expect(account?.access_token).toEqual(expect.any(String))
      expect(account?.id_token).toEqual(expect.any(String))
    } finally {
      await backend.close()
    }
  })
})
