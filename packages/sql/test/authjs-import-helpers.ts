/**
 * Shared by the Auth.js import tests on SQLite and PostgreSQL: the CLI run as a
 * function, and the proof that an imported database works through Tessera
 * itself (`Auth()` with the SQL adapter): old session cookies, OAuth accounts
 * and passkeys sign the same users in.
 */
import Sqlite from "better-sqlite3"
import { Kysely, SqliteDialect } from "kysely"
import { expect } from "vitest"
import type { AuthConfig } from "@tessera/core"
import Passkey from "@tessera/core/providers/passkey"
import type { SqlAdapterInstance } from "@tessera/sql"
import { main } from "../src/cli.js"
import { SoftAuthenticator } from "@tessera/testing/webauthn-authenticator"
import { PasskeyBrowser } from "../../core/test/flows/webauthn/passkey-browser.js"
import { createAuthjsDatabase, type Seed } from "./authjs-fixtures.js"

export const SECRET = "tessera-secret-for-the-import-tests-0123456789"
export const SESSION_COOKIE = "tessera.session-token"

/** `tessera migrate --from authjs ...` in process. */
export const authjs = (...args: string[]) => cli("migrate", "--from", "authjs", ...args)

/** Runs `fn` with the Kysely instance, then destroys it. */
export async function withKysely<T>(
  db: Kysely<any>,
  fn: (db: Kysely<any>) => Promise<T>,
): Promise<T> {
  try {
    return await fn(db)
  } finally {
    await db.destroy()
  }
}

/**
 * An Auth.js app's SQLite database (Kysely adapter layout) with `seed` in `file`, imported
 * by `tessera migrate --from authjs --apply`: what an app has right after moving over.
 */
export async function importedSqlite(file: string, seed: Seed): Promise<void> {
  await withKysely(
    new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(file) }) }),
    (db) => createAuthjsDatabase(db, "kysely", "sqlite", seed),
  )
  expect((await authjs("--sqlite", file, "--apply")).code).toBe(0)
}

/** Runs `fn` with the adapter, then closes it. */
export async function withAdapter<T>(
  adapter: SqlAdapterInstance,
  fn: (adapter: SqlAdapterInstance) => Promise<T>,
): Promise<T> {
  try {
    return await fn(adapter)
  } finally {
    await adapter.close()
  }
}

/** The report table of a first import of the seed: [in Auth.js, imported, already there, left behind]. */
export const FRESH = {
  users: [4, 4, 0, 0],
  accounts: [3, 3, 0, 0],
  sessions: [3, 2, 0, 1],
  "verification tokens": [2, 0, 0, 2],
  passkeys: [1, 1, 0, 0],
}
/** ... and of a second one: everything already there, the same rows left behind. */
export const AGAIN = {
  users: [4, 0, 4, 0],
  accounts: [3, 0, 3, 0],
  sessions: [3, 0, 2, 1],
  "verification tokens": [2, 0, 0, 2],
  passkeys: [1, 0, 1, 0],
}

/** `tessera ...` in process: exit code and what it printed. */
export async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await main(args, {
    out: (s) => void out.push(s),
    err: (s) => void err.push(s),
    env: {},
  })
  return { code, out: out.join(""), err: err.join("") }
}

export function tesseraConfig(
  adapter: SqlAdapterInstance,
  overrides: Partial<AuthConfig> = {},
): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [Passkey()],
    logger: { error() {}, warn() {}, debug() {} },
    ...overrides,
  }
}

/** A browser carrying only the cookie an Auth.js app had set. */
export function browserWithCookie(config: AuthConfig, name: string, value: string): PasskeyBrowser {
  const browser = new PasskeyBrowser(config)
  browser.jar.set(name, value)
  return browser
}

/** The device that holds the seed's passkey, as Auth.js registered it. */
export function seedAuthenticator(seed: Seed): SoftAuthenticator {
  const device = new SoftAuthenticator()
  const { passkey } = seed
  device.credentials.set(passkey.idBase64Url, {
    id: passkey.idBase64Url,
    privateKey: passkey.privateKey,
    publicKey: passkey.publicKey,
    rpId: "localhost",
    userHandle: Buffer.from("authjs-random-user-handle").toString("base64url"),
    counter: passkey.counter,
  })
  return device
}

/**
 * The imported database through Tessera: each live Auth.js session cookie reads
 * back its user at GET /auth/session; the OIDC and GitHub accounts belong to
 * their users, tokens intact; the passkey signs Ada in.
 */
export async function expectWorksInTessera(
  adapter: SqlAdapterInstance,
  seed: Seed,
  options: { passkeys?: boolean } = {},
) {
  const config = tesseraConfig(adapter)
  for (const [userId, token] of Object.entries(seed.liveSessions)) {
    const user = seed.users.find((u) => u.id === userId)!
    const browser = browserWithCookie(config, SESSION_COOKIE, token)
    const session = await browser.session()
    expect(session?.user, `session of ${user.email}`).toEqual({
      name: user.name,
      email: user.email,
      image: user.image,
    })
  }

  const ada = await adapter.getUserByAccount({ provider: "local", providerAccountId: "ada" })
  expect(ada).toEqual({
    id: seed.ids.ada,
    name: "Ada Lovelace",
    email: "ada@example.com",
    emailVerified: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)),
    image: "https://img.example/ada.png",
  })
  expect(await adapter.getAccount("ada", "local")).toMatchObject({
    userId: seed.ids.ada,
    type: "oidc",
    access_token: "ada-access-token",
    refresh_token: "ada-refresh-token",
    id_token: "ada.id.token",
    expires_at: 1_999_999_999,
    token_type: "bearer",
    scope: "openid profile email",
  })
  expect(
    await adapter.getUserByAccount({ provider: "github", providerAccountId: "12345" }),
  ).toMatchObject({ id: seed.ids.bob, email: "Bob@Example.com" })
  expect(await adapter.getAccount("12345", "github")).toMatchObject({ session_state: "state-1" })

  if (options.passkeys === false) return
  // The passkey, stored by Auth.js in standard base64, signs Ada in through Tessera's ceremony.
  const stored = await adapter.getAuthenticator(seed.passkey.idBase64Url)
  expect(stored).toMatchObject({
    userId: seed.ids.ada,
    providerAccountId: seed.passkey.idBase64Url,
    counter: seed.passkey.counter,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal,hybrid",
  })
  expect(stored!.credentialPublicKey).toMatch(/^[A-Za-z0-9_-]+$/)
  const device = new PasskeyBrowser(config, "http://localhost:3000", seedAuthenticator(seed))
  const signedIn = await device.signInWithPasskey()
  expect(signedIn.status, await signedIn.clone().text()).toBe(302)
  expect((await device.session())?.user?.email).toBe("ada@example.com")
  // Its account was found, not linked again under another encoding of the ID.
  const passkeyAccounts = await adapter.db
    .selectFrom("accounts")
    .select("provider_account_id")
    .where("provider", "=", "passkey")
    .execute()
  expect(passkeyAccounts).toEqual([{ provider_account_id: seed.passkey.idBase64Url }])
}

/** The table of a report as numbers: `{ users: [found, imported, present, left], ... }`. */
export function reportCounts(text: string): Record<string, number[]> {
  const counts: Record<string, number[]> = {}
  for (const line of text.split("\n")) {
    const match =
      /^ {2}(users|accounts|sessions|verification tokens|passkeys)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/.exec(
        line,
      )
    if (match) counts[match[1]!] = match.slice(2).map(Number)
  }
  return counts
}
