/**
 * Red team, round 10: e-mail identity on a database that compares addresses
 * loosely, on a real PostgreSQL. Many deployments make the e-mail column
 * case-insensitive with a nondeterministic ICU collation (PostgreSQL's
 * documented way), or run MySQL, whose default collation also ignores
 * accents; Auth.js adapters for them plug into Tessera. Here the `users.email`
 * column gets an accent- and case-insensitive collation (`und-u-ks-level1`,
 * MySQL's `utf8mb4_0900_ai_ci` in PostgreSQL terms).
 *
 * The attack: the app uses the `normalizeIdentifier` from Auth.js's
 * documentation (lower-case, split at `@`), which keeps Unicode domains as
 * typed. The attacker registers `kiósk.test` (a domain of their own) and asks
 * for a link for `kristin@kiósk.test`: the mail goes to their domain, and
 * `getUserByEmail("kristin@kiósk.test")` answers the victim
 * `kristin@kiosk.test`. Before the fix the link signed the attacker in as the
 * victim; now the e-mail identity steps take a user only when the address it
 * holds is the one asked for (ignoring ASCII case), and refuse the sign-in
 * otherwise. Tessera's own normalizer turns the domain into punycode first,
 * which no collation folds onto the victim's: a regression test pins that too.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { sql } from "kysely"
import { Auth, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import {
  completeOidcLogin,
  localOidcProvider,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { postgresSchemas } from "../helpers.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "a-test-secret-that-is-long-enough-0123456789"
const VICTIM = "kristin@kiosk.test"
const LOOK_ALIKE = "kristin@ki\u00F3sk.test"
const pgs = postgresSchemas("tessera_rt10")

/** The normalizer from Auth.js's documentation of `normalizeIdentifier`. */
function authjsDocsNormalizer(identifier: string): string {
  const [local, domain] = identifier.toLowerCase().trim().split("@")
  return `${local}@${domain!.split(",")[0]}`
}

async function csrf(config: AuthConfig) {
  const response = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ")
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  return { cookie, csrfToken }
}

/** The cookie header of a response's cookies (a session, if one was set). */
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ")

async function withLooseDatabase(
  normalizeIdentifier: ((identifier: string) => string) | undefined,
  victimEmail: string,
  fn: (app: {
    adapter: SqlAdapterInstance
    config: AuthConfig
    mailed: EmailSendVerificationRequestParams[]
  }) => Promise<void>,
) {
  const schema = await pgs.fresh("loose")
  const adapter = SqlAdapter.postgres(pgs.poolConfig(schema))
  try {
    await adapter.migrate()
    await sql
      .raw(
        `create collation "${schema}".loose (provider = icu, locale = 'und-u-ks-level1', deterministic = false);
         alter table "${schema}".users alter column email type text collate "${schema}".loose`,
      )
      .execute(adapter.db)
    await adapter.createUser!({
      id: "victim",
      email: victimEmail,
      emailVerified: new Date("2026-01-01T00:00:00Z"),
      name: "Kristin",
    })
    const mailed: EmailSendVerificationRequestParams[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      logger: { error() {}, warn() {}, debug() {} },
      rateLimit: false,
      providers: [
        Email({
          sendVerificationRequest: async (params) => void mailed.push(params),
          ...(normalizeIdentifier ? { normalizeIdentifier } : {}),
        }),
        ...(idp
          ? [{ ...localOidcProvider(idp, "local"), allowDangerousEmailAccountLinking: true }]
          : []),
      ],
    }
    await fn({ adapter, config, mailed })
  } finally {
    await adapter.close()
  }
}

/** Asks for a link for `email` and follows it; the session it got. */
async function signInByLink(
  config: AuthConfig,
  mailed: EmailSendVerificationRequestParams[],
  email: string,
) {
  const { cookie, csrfToken } = await csrf(config)
  const asked = await Auth(
    new Request(`${ORIGIN}/auth/signin/email`, {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, csrfToken }),
    }),
    config,
  )
  const mail = mailed.at(-1)!
  const response = await Auth(new Request(mail.url), config)
  const session = await Auth(
    new Request(`${ORIGIN}/auth/session`, { headers: { cookie: cookiesOf(response) } }),
    config,
  )
  return {
    asked,
    mail,
    response,
    session: (await session.json()) as { user?: { email?: string } } | null,
  }
}

describe("a PostgreSQL e-mail column that ignores accents and case", () => {
  test("the database really does match the look-alike to the victim", () =>
    withLooseDatabase(undefined, VICTIM, async ({ adapter }) => {
      expect(await adapter.getUserByEmail!(LOOK_ALIKE)).toMatchObject({ id: "victim" })
    }))

  test("Auth.js's documented normalizeIdentifier: the attacker's link for kristin@kiósk.test does not sign in kristin@kiosk.test", () =>
    withLooseDatabase(authjsDocsNormalizer, VICTIM, async ({ adapter, config, mailed }) => {
      const { asked, mail, response, session } = await signInByLink(config, mailed, LOOK_ALIKE)
      // Asked for, the link is mailed (to the attacker's domain) as for any address: the
      // request tells nobody whether a look-alike has an account.
      expect(asked.headers.get("location")).toBe(
        `${ORIGIN}/auth/verify-request?provider=email&type=email`,
      )
      expect(mail.identifier).toBe(LOOK_ALIKE)
      // No session (before the fix: the victim's), refused as an address another user
      // holds (Auth.js's AccountNotLinked page value).
      expect(session).toBeNull()
      expect(response.headers.get("location")).toContain("error=OAuthAccountNotLinked")
      // No session for anyone, the victim's row untouched, nobody else holds the address.
      expect(await adapter.db.selectFrom("sessions").selectAll().execute()).toEqual([])
      const users = await adapter.db.selectFrom("users").select(["id", "email"]).execute()
      expect(users).toEqual([{ id: "victim", email: VICTIM }])
    }))

  test("the victim's own link still signs the victim in", () =>
    withLooseDatabase(authjsDocsNormalizer, VICTIM, async ({ config, mailed }) => {
      const { session } = await signInByLink(config, mailed, "Kristin@Kiosk.test")
      expect(session?.user?.email).toBe(VICTIM)
    }))

  test("Tessera's default normalizer: the look-alike domain is punycode, its own account", () =>
    withLooseDatabase(undefined, VICTIM, async ({ adapter, config, mailed }) => {
      const { mail, session } = await signInByLink(config, mailed, LOOK_ALIKE)
      expect(mail.identifier).toBe("kristin@xn--kisk-rqa.test")
      expect(session?.user?.email).toBe("kristin@xn--kisk-rqa.test")
      const users = await adapter.db.selectFrom("users").select(["id", "email"]).execute()
      expect(users).toHaveLength(2)
      expect(users.find((u) => u.id === "victim")!.email).toBe(VICTIM)
    }))
})

let idp: OidcProviderServer | undefined
describe("the other way round: the victim's address is the Unicode one", () => {
  beforeAll(async () => {
    idp = await startOidcProvider({
      redirectUris: [`${ORIGIN}/auth/callback/local`],
      // The attacker's own mailbox, which the provider verified.
      accounts: { mallory: { email: VICTIM, email_verified: true } },
    })
  })
  afterAll(() => idp?.stop())

  test("a provider vouching for kristin@kiosk.test, with dangerous linking, does not link to the holder of kristin@kiósk.test", () =>
    // The victim signed up through the app's Auth.js normalizer: their address kept its accent.
    withLooseDatabase(authjsDocsNormalizer, LOOK_ALIKE, async ({ adapter, config }) => {
      const { cookie, csrfToken } = await csrf(config)
      const start = await Auth(
        new Request(`${ORIGIN}/auth/signin/local`, {
          method: "POST",
          headers: {
            cookie,
            origin: ORIGIN,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({ csrfToken }),
        }),
        config,
      )
      const back = await completeOidcLogin(start.headers.get("location")!, {
        accountId: "mallory",
      })
      const checks = cookiesOf(start)
      const response = await Auth(
        new Request(back.url.href, { headers: { cookie: `${cookie}; ${checks}` } }),
        config,
      )
      expect(response.headers.get("location")).toContain("error=OAuthAccountNotLinked")
      expect(await adapter.db.selectFrom("accounts").selectAll().execute()).toEqual([])
      expect(await adapter.db.selectFrom("sessions").selectAll().execute()).toEqual([])
    }))
})
