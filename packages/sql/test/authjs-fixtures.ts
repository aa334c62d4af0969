/**
 * Auth.js databases for the import tests: the table layouts of Auth.js's SQL
 * adapters, written out as the DDL their documented schemas produce (the Kysely
 * adapter's migration, `prisma migrate` on the Prisma schema and on its
 * snake_case `@map` variant, `drizzle-kit` on the Drizzle schemas), for SQLite
 * and PostgreSQL, and a writer that stores rows the way each adapter stores
 * them (ISO strings, epoch milliseconds, zone-less UTC timestamps, 0/1).
 *
 * The seed has what an import meets in real databases: a user with an OIDC
 * account, a passkey and sessions; a user whose e-mail differs from another's
 * only by case; expired and live sessions; live and expired sign-in links;
 * a passkey whose ID needs re-encoding (standard base64 with `+`, `/`, `=`).
 */
import {
  createHash,
  generateKeyPairSync,
  randomBytes,
  randomUUID,
  type KeyObject,
} from "node:crypto"
import { sql, type Kysely } from "kysely"
import { coseKeyOf } from "@tessera/testing/webauthn-authenticator"
import type { AccountRow, AuthenticatorRow, UserRow } from "../src/import/authjs/convert.js"

export type Engine = "sqlite" | "postgres"
export type LayoutName = "kysely" | "prisma" | "prisma-snake" | "drizzle"

/** The Auth.js secret the seed's sign-in links were hashed with. */
export const AUTHJS_SECRET = "authjs-secret-0123456789abcdef-0123456789"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

/** Rows of the Auth.js model: the same fields Tessera's rows have (Auth.js names, not columns). */
export type SeedUser = UserRow & { email: string }
export type SeedAccount = AccountRow
export interface SeedSession {
  sessionToken: string
  userId: string
  expires: Date
}
export interface SeedToken {
  identifier: string
  token: string
  expires: Date
}
export type SeedAuthenticator = AuthenticatorRow

/** A passkey as a device holds it, and as Auth.js stored it (standard base64). */
export interface SeedPasskey {
  id: string
  /** base64url, as the browser sends it */
  idBase64Url: string
  privateKey: KeyObject
  publicKey: KeyObject
  counter: number
}

export interface Seed {
  /** User ids (UUIDs, as the Kysely adapter's PostgreSQL schema requires). */
  ids: { ada: string; bob: string; bob2: string; carol: string }
  users: SeedUser[]
  accounts: SeedAccount[]
  sessions: SeedSession[]
  verificationTokens: SeedToken[]
  authenticators: SeedAuthenticator[]
  /** Raw cookie values of the live sessions, by user id. */
  liveSessions: Record<string, string>
  passkey: SeedPasskey
}

/** A credential ID whose standard base64 has `+` or `/` and padding, so it must be re-encoded. */
function awkwardCredentialId(): Buffer {
  for (;;) {
    const id = randomBytes(20)
    const b64 = id.toString("base64")
    if (/[+/]/.test(b64) && b64.endsWith("=")) return id
  }
}

const authjsTokenHash = (token: string) =>
  createHash("sha256").update(`${token}${AUTHJS_SECRET}`).digest("hex")

export function makeSeed(now = Date.now()): Seed {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
  const rawId = awkwardCredentialId()
  const passkey: SeedPasskey = {
    id: rawId.toString("base64"),
    idBase64Url: rawId.toString("base64url"),
    privateKey,
    publicKey,
    counter: 5,
  }
  const adaSession = randomUUID()
  const bobSession = randomUUID()
  const ids = { ada: randomUUID(), bob: randomUUID(), bob2: randomUUID(), carol: randomUUID() }
  return {
    ids,
    users: [
      {
        id: ids.ada,
        name: "Ada Lovelace",
        email: "ada@example.com",
        emailVerified: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)),
        image: "https://img.example/ada.png",
      },
      { id: ids.bob, name: "Bob", email: "Bob@Example.com", emailVerified: null, image: null },
      {
        id: ids.bob2,
        name: "Bob Two",
        email: "bob@example.com",
        emailVerified: new Date(Date.UTC(2024, 5, 1)),
        image: null,
      },
      { id: ids.carol, name: null, email: "carol@example.com", emailVerified: null, image: null },
    ],
    accounts: [
      {
        userId: ids.ada,
        type: "oidc",
        provider: "local",
        providerAccountId: "ada",
        refresh_token: "ada-refresh-token",
        access_token: "ada-access-token",
        expires_at: 1_999_999_999,
        token_type: "Bearer",
        scope: "openid profile email",
        id_token: "ada.id.token",
        session_state: null,
      },
      {
        userId: ids.bob,
        type: "oauth",
        provider: "github",
        providerAccountId: "12345",
        refresh_token: null,
        access_token: "gho_bob",
        expires_at: null,
        token_type: "bearer",
        scope: "read:user",
        id_token: null,
        session_state: "state-1",
      },
      {
        userId: ids.ada,
        type: "webauthn",
        provider: "passkey",
        providerAccountId: passkey.id,
        refresh_token: null,
        access_token: null,
        expires_at: null,
        token_type: null,
        scope: null,
        id_token: null,
        session_state: null,
      },
    ],
    sessions: [
      { sessionToken: adaSession, userId: ids.ada, expires: new Date(now + 30 * DAY) },
      { sessionToken: bobSession, userId: ids.bob, expires: new Date(now + 2 * DAY) },
      { sessionToken: randomUUID(), userId: ids.ada, expires: new Date(now - DAY) },
    ],
    verificationTokens: [
      {
        identifier: "carol@example.com",
        token: authjsTokenHash("live-link-token"),
        expires: new Date(now + 60 * MINUTE),
      },
      {
        identifier: "carol@example.com",
        token: authjsTokenHash("old-link-token"),
        expires: new Date(now - DAY),
      },
    ],
    authenticators: [
      {
        credentialID: passkey.id,
        userId: ids.ada,
        providerAccountId: passkey.id,
        credentialPublicKey: coseKeyOf(publicKey).toString("base64"),
        counter: passkey.counter,
        credentialDeviceType: "multiDevice",
        credentialBackedUp: true,
        transports: "internal,hybrid",
      },
    ],
    liveSessions: { [ids.ada]: adaSession, [ids.bob]: bobSession },
    passkey,
  }
}

/** The seed for a layout without passkey tables (Prisma's snake_case example has none). */
export function withoutPasskeys(seed: Seed): Seed {
  return {
    ...seed,
    accounts: seed.accounts.filter((a) => a.type !== "webauthn"),
    authenticators: [],
  }
}

// ---------------------------------------------------------------- DDL

const PRISMA_SQLITE = [
  `CREATE TABLE "User" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT, "email" TEXT, "emailVerified" DATETIME, "image" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" DATETIME NOT NULL)`,
  `CREATE TABLE "Account" ("id" TEXT NOT NULL PRIMARY KEY, "userId" TEXT NOT NULL, "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL, "providerAccountId" TEXT NOT NULL, "refresh_token" TEXT, "access_token" TEXT,
    "expires_at" INTEGER, "token_type" TEXT, "scope" TEXT, "id_token" TEXT, "session_state" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE)`,
  `CREATE TABLE "Session" ("id" TEXT NOT NULL PRIMARY KEY, "sessionToken" TEXT NOT NULL, "userId" TEXT NOT NULL,
    "expires" DATETIME NOT NULL, "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE)`,
  `CREATE TABLE "VerificationToken" ("identifier" TEXT NOT NULL, "token" TEXT NOT NULL, "expires" DATETIME NOT NULL)`,
  `CREATE TABLE "Authenticator" ("credentialID" TEXT NOT NULL, "userId" TEXT NOT NULL, "providerAccountId" TEXT NOT NULL,
    "credentialPublicKey" TEXT NOT NULL, "counter" INTEGER NOT NULL, "credentialDeviceType" TEXT NOT NULL,
    "credentialBackedUp" BOOLEAN NOT NULL, "transports" TEXT, PRIMARY KEY ("userId", "credentialID"),
    CONSTRAINT "Authenticator_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE)`,
  `CREATE UNIQUE INDEX "User_email_key" ON "User"("email")`,
  `CREATE UNIQUE INDEX "Account_provider_providerAccountId_key" ON "Account"("provider", "providerAccountId")`,
  `CREATE UNIQUE INDEX "Session_sessionToken_key" ON "Session"("sessionToken")`,
  `CREATE UNIQUE INDEX "VerificationToken_identifier_token_key" ON "VerificationToken"("identifier", "token")`,
  `CREATE UNIQUE INDEX "Authenticator_credentialID_key" ON "Authenticator"("credentialID")`,
  `CREATE TABLE "_prisma_migrations" ("id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME, "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`,
]

const PRISMA_POSTGRES = [
  `CREATE TABLE "User" ("id" TEXT NOT NULL, "name" TEXT, "email" TEXT NOT NULL, "emailVerified" TIMESTAMP(3), "image" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "User_pkey" PRIMARY KEY ("id"))`,
  `CREATE TABLE "Account" ("userId" TEXT NOT NULL, "type" TEXT NOT NULL, "provider" TEXT NOT NULL,
    "providerAccountId" TEXT NOT NULL, "refresh_token" TEXT, "access_token" TEXT, "expires_at" INTEGER,
    "token_type" TEXT, "scope" TEXT, "id_token" TEXT, "session_state" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "Account_pkey" PRIMARY KEY ("provider","providerAccountId"))`,
  `CREATE TABLE "Session" ("sessionToken" TEXT NOT NULL, "userId" TEXT NOT NULL, "expires" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" TIMESTAMP(3) NOT NULL)`,
  `CREATE TABLE "VerificationToken" ("identifier" TEXT NOT NULL, "token" TEXT NOT NULL, "expires" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "VerificationToken_pkey" PRIMARY KEY ("identifier","token"))`,
  `CREATE TABLE "Authenticator" ("credentialID" TEXT NOT NULL, "userId" TEXT NOT NULL, "providerAccountId" TEXT NOT NULL,
    "credentialPublicKey" TEXT NOT NULL, "counter" INTEGER NOT NULL, "credentialDeviceType" TEXT NOT NULL,
    "credentialBackedUp" BOOLEAN NOT NULL, "transports" TEXT,
    CONSTRAINT "Authenticator_pkey" PRIMARY KEY ("userId","credentialID"))`,
  `CREATE UNIQUE INDEX "User_email_key" ON "User"("email")`,
  `CREATE UNIQUE INDEX "Session_sessionToken_key" ON "Session"("sessionToken")`,
  `CREATE UNIQUE INDEX "Authenticator_credentialID_key" ON "Authenticator"("credentialID")`,
  `ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
  `ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
  `ALTER TABLE "Authenticator" ADD CONSTRAINT "Authenticator_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
]

/** The Kysely adapter's documented migration (PostgreSQL types); SQLite takes the type names as they are. */
function kyselyDdl(engine: Engine): string[] {
  const uuid = engine === "postgres" ? `uuid DEFAULT gen_random_uuid()` : "text"
  const ts = "timestamptz"
  return [
    `CREATE TABLE "User" ("id" ${uuid} PRIMARY KEY, "name" text, "email" text NOT NULL UNIQUE, "emailVerified" ${ts}, "image" text)`,
    `CREATE TABLE "Account" ("id" ${uuid} PRIMARY KEY, "userId" ${engine === "postgres" ? "uuid" : "text"} NOT NULL REFERENCES "User"("id") ON DELETE CASCADE,
      "type" text NOT NULL, "provider" text NOT NULL, "providerAccountId" text NOT NULL, "refresh_token" text,
      "access_token" text, "expires_at" bigint, "token_type" text, "scope" text, "id_token" text, "session_state" text)`,
    `CREATE TABLE "Session" ("id" ${uuid} PRIMARY KEY, "userId" ${engine === "postgres" ? "uuid" : "text"} NOT NULL REFERENCES "User"("id") ON DELETE CASCADE,
      "sessionToken" text NOT NULL UNIQUE, "expires" ${ts} NOT NULL)`,
    `CREATE TABLE "VerificationToken" ("identifier" text NOT NULL, "token" text NOT NULL UNIQUE, "expires" ${ts} NOT NULL)`,
    // Not in the adapter's migration; Auth.js's model for passkeys, as apps add it.
    `CREATE TABLE "Authenticator" ("credentialID" text NOT NULL UNIQUE, "userId" ${engine === "postgres" ? "uuid" : "text"} NOT NULL REFERENCES "User"("id") ON DELETE CASCADE,
      "providerAccountId" text NOT NULL, "credentialPublicKey" text NOT NULL, "counter" integer NOT NULL,
      "credentialDeviceType" text NOT NULL, "credentialBackedUp" boolean NOT NULL, "transports" text,
      PRIMARY KEY ("userId", "credentialID"))`,
    `CREATE INDEX "Account_userId_index" ON "Account" ("userId")`,
    `CREATE INDEX "Session_userId_index" ON "Session" ("userId")`,
    `CREATE TABLE "kysely_migration" ("name" varchar(255) NOT NULL PRIMARY KEY, "timestamp" varchar(255) NOT NULL)`,
  ]
}

/** Prisma's `@map` example: snake_case columns, plural tables; the tokens table named per engine. */
function prismaSnakeDdl(engine: Engine): string[] {
  const ts = engine === "postgres" ? "TIMESTAMP(3)" : "DATETIME"
  const tokens = engine === "postgres" ? "verification_token" : "verificationtokens"
  return [
    `CREATE TABLE "users" ("id" TEXT NOT NULL PRIMARY KEY, "name" TEXT, "email" TEXT, "email_verified" ${ts}, "image" TEXT)`,
    `CREATE TABLE "accounts" ("id" TEXT NOT NULL PRIMARY KEY, "user_id" TEXT NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
      "type" TEXT NOT NULL, "provider" TEXT NOT NULL, "provider_account_id" TEXT NOT NULL, "refresh_token" TEXT,
      "access_token" TEXT, "expires_at" INTEGER, "token_type" TEXT, "scope" TEXT, "id_token" TEXT, "session_state" TEXT)`,
    `CREATE TABLE "sessions" ("id" TEXT NOT NULL PRIMARY KEY, "session_token" TEXT NOT NULL UNIQUE,
      "user_id" TEXT NOT NULL REFERENCES "users"("id") ON DELETE CASCADE, "expires" ${ts} NOT NULL)`,
    `CREATE TABLE "${tokens}" ("identifier" TEXT NOT NULL, "token" TEXT NOT NULL, "expires" ${ts} NOT NULL)`,
    `CREATE UNIQUE INDEX "users_email_key" ON "users"("email")`,
    `CREATE UNIQUE INDEX "accounts_provider_provider_account_id_key" ON "accounts"("provider", "provider_account_id")`,
    `CREATE UNIQUE INDEX "${tokens}_identifier_token_key" ON "${tokens}"("identifier", "token")`,
  ]
}

const DRIZZLE_SQLITE = [
  "CREATE TABLE `user` (`id` text PRIMARY KEY NOT NULL, `name` text, `email` text, `emailVerified` integer, `image` text)",
  "CREATE UNIQUE INDEX `user_email_unique` ON `user` (`email`)",
  "CREATE TABLE `account` (`userId` text NOT NULL, `type` text NOT NULL, `provider` text NOT NULL, `providerAccountId` text NOT NULL," +
    " `refresh_token` text, `access_token` text, `expires_at` integer, `token_type` text, `scope` text, `id_token` text," +
    " `session_state` text, PRIMARY KEY(`provider`, `providerAccountId`)," +
    " FOREIGN KEY (`userId`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade)",
  "CREATE TABLE `session` (`sessionToken` text PRIMARY KEY NOT NULL, `userId` text NOT NULL, `expires` integer NOT NULL," +
    " FOREIGN KEY (`userId`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade)",
  "CREATE TABLE `verificationToken` (`identifier` text NOT NULL, `token` text NOT NULL, `expires` integer NOT NULL," +
    " PRIMARY KEY(`identifier`, `token`))",
  "CREATE TABLE `authenticator` (`credentialID` text NOT NULL, `userId` text NOT NULL, `providerAccountId` text NOT NULL," +
    " `credentialPublicKey` text NOT NULL, `counter` integer NOT NULL, `credentialDeviceType` text NOT NULL," +
    " `credentialBackedUp` integer NOT NULL, `transports` text, PRIMARY KEY(`userId`, `credentialID`)," +
    " FOREIGN KEY (`userId`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade)",
  "CREATE UNIQUE INDEX `authenticator_credentialID_unique` ON `authenticator` (`credentialID`)",
]

// drizzle-kit qualifies the referenced table ("public"."user"); the tests put each database in a schema of its own.
const DRIZZLE_POSTGRES = [
  `CREATE TABLE "user" ("id" text PRIMARY KEY NOT NULL, "name" text, "email" text, "emailVerified" timestamp, "image" text,
    CONSTRAINT "user_email_unique" UNIQUE("email"))`,
  `CREATE TABLE "account" ("userId" text NOT NULL, "type" text NOT NULL, "provider" text NOT NULL, "providerAccountId" text NOT NULL,
    "refresh_token" text, "access_token" text, "expires_at" integer, "token_type" text, "scope" text, "id_token" text,
    "session_state" text, CONSTRAINT "account_provider_providerAccountId_pk" PRIMARY KEY("provider","providerAccountId"))`,
  `CREATE TABLE "session" ("sessionToken" text PRIMARY KEY NOT NULL, "userId" text NOT NULL, "expires" timestamp NOT NULL)`,
  `CREATE TABLE "verificationToken" ("identifier" text NOT NULL, "token" text NOT NULL, "expires" timestamp NOT NULL,
    CONSTRAINT "verificationToken_identifier_token_pk" PRIMARY KEY("identifier","token"))`,
  `CREATE TABLE "authenticator" ("credentialID" text NOT NULL, "userId" text NOT NULL, "providerAccountId" text NOT NULL,
    "credentialPublicKey" text NOT NULL, "counter" integer NOT NULL, "credentialDeviceType" text NOT NULL,
    "credentialBackedUp" boolean NOT NULL, "transports" text,
    CONSTRAINT "authenticator_userId_credentialID_pk" PRIMARY KEY("userId","credentialID"),
    CONSTRAINT "authenticator_credentialID_unique" UNIQUE("credentialID"))`,
  `ALTER TABLE "account" ADD CONSTRAINT "account_userId_user_id_fk" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE cascade ON UPDATE no action`,
  `ALTER TABLE "session" ADD CONSTRAINT "session_userId_user_id_fk" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE cascade ON UPDATE no action`,
  `ALTER TABLE "authenticator" ADD CONSTRAINT "authenticator_userId_user_id_fk" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE cascade ON UPDATE no action`,
]

// ---------------------------------------------------------------- layouts

type Kind = "users" | "accounts" | "sessions" | "verificationTokens" | "authenticators"

interface FixtureLayout {
  ddl: string[]
  tables: Partial<Record<Kind, string>>
  /** Column name of an Auth.js field, when it differs from the field's name. */
  columns: Record<string, string>
  /** A date as this adapter writes it. */
  date: (d: Date) => unknown
  bool: (b: boolean) => unknown
  /** Columns the schema adds that need a value (ids, Prisma's timestamps). */
  extra: Partial<Record<Kind, () => Record<string, unknown>>>
}

const utcWallClock = (d: Date) => d.toISOString().replace("T", " ").replace("Z", "")

export function fixtureLayout(name: LayoutName, engine: Engine): FixtureLayout {
  const pg = engine === "postgres"
  const pascal = {
    users: "User",
    accounts: "Account",
    sessions: "Session",
    verificationTokens: "VerificationToken",
    authenticators: "Authenticator",
  }
  const bool = (b: boolean) => (pg ? b : b ? 1 : 0)
  switch (name) {
    case "kysely":
      return {
        ddl: kyselyDdl(engine),
        tables: pascal,
        columns: {},
        // The adapter writes Dates on PostgreSQL and ISO strings on SQLite.
        date: (d) => (pg ? d : d.toISOString()),
        bool,
        extra: pg
          ? {}
          : { accounts: () => ({ id: randomUUID() }), sessions: () => ({ id: randomUUID() }) },
      }
    case "prisma": {
      // Prisma writes UTC into TIMESTAMP(3) on PostgreSQL and epoch ms on SQLite.
      const date = (d: Date) => (pg ? utcWallClock(d) : d.valueOf())
      const stamps = () => ({ createdAt: date(new Date()), updatedAt: date(new Date()) })
      const withId = () => (pg ? stamps() : { id: randomUUID(), ...stamps() })
      return {
        ddl: pg ? PRISMA_POSTGRES : PRISMA_SQLITE,
        tables: pascal,
        columns: {},
        date,
        bool,
        extra: { users: stamps, accounts: withId, sessions: withId },
      }
    }
    case "prisma-snake":
      return {
        ddl: prismaSnakeDdl(engine),
        tables: {
          users: "users",
          accounts: "accounts",
          sessions: "sessions",
          verificationTokens: pg ? "verification_token" : "verificationtokens",
        },
        columns: {
          emailVerified: "email_verified",
          userId: "user_id",
          providerAccountId: "provider_account_id",
          sessionToken: "session_token",
        },
        date: (d) => (pg ? utcWallClock(d) : d.valueOf()),
        bool,
        extra: { accounts: () => ({ id: randomUUID() }), sessions: () => ({ id: randomUUID() }) },
      }
    case "drizzle":
      return {
        ddl: pg ? DRIZZLE_POSTGRES : DRIZZLE_SQLITE,
        tables: {
          users: "user",
          accounts: "account",
          sessions: "session",
          verificationTokens: "verificationToken",
          authenticators: "authenticator",
        },
        columns: {},
        // mode "date" on PostgreSQL (toISOString into a zone-less timestamp), "timestamp_ms" on SQLite.
        date: (d) => (pg ? utcWallClock(d) : d.valueOf()),
        bool,
        extra: {},
      }
  }
}

const DATE_FIELDS = new Set(["emailVerified", "expires"])
const BOOL_FIELDS = new Set(["credentialBackedUp"])

/** Creates the layout's tables (in the current schema) and stores the seed as its adapter would. */
export async function createAuthjsDatabase(
  db: Kysely<any>,
  name: LayoutName,
  engine: Engine,
  seed: Seed,
): Promise<void> {
  const layout = fixtureLayout(name, engine)
  for (const statement of layout.ddl) await sql.raw(statement).execute(db)
  await insertRows(db, name, engine, seed)
}

/** Stores rows in an existing Auth.js database of this layout. */
export async function insertRows(
  db: Kysely<any>,
  name: LayoutName,
  engine: Engine,
  rows: Partial<Omit<Seed, "liveSessions" | "passkey">>,
): Promise<void> {
  const layout = fixtureLayout(name, engine)
  for (const kind of [
    "users",
    "accounts",
    "sessions",
    "verificationTokens",
    "authenticators",
  ] as const) {
    const table = layout.tables[kind]
    const list = rows[kind] as Record<string, unknown>[] | undefined
    if (!table || !list?.length) continue
    const values = list.map((row) => {
      const out: Record<string, unknown> = { ...layout.extra[kind]?.() }
      for (const [field, value] of Object.entries(row)) {
        const column = layout.columns[field] ?? field
        out[column] =
          value instanceof Date && DATE_FIELDS.has(field)
            ? layout.date(value)
            : BOOL_FIELDS.has(field)
              ? layout.bool(value as boolean)
              : value
      }
      return out
    })
    await db.insertInto(table).values(values).execute()
  }
}

/** Every row of every table but Tessera's, in a stable order: to prove the Auth.js side unchanged. */
export async function dumpTables(
  db: Kysely<any>,
  tables: string[],
): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {}
  for (const table of tables) {
    const rows = await db.selectFrom(table).selectAll().execute()
    out[table] = rows
      .map((r) => JSON.stringify(r, (_, v) => (typeof v === "bigint" ? String(v) : v)))
      .sort()
  }
  return out
}

export const TESSERA_TABLES = [
  "users",
  "accounts",
  "sessions",
  "verification_tokens",
  "authenticators",
]

export function authjsTables(name: LayoutName, engine: Engine): string[] {
  return Object.values(fixtureLayout(name, engine).tables)
}
