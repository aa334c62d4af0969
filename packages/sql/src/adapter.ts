/**
 * The `Adapter` methods over a Kysely instance, for SQLite and PostgreSQL.
 *
 * - `getSessionAndUser` is one indexed join, the hot path of every request.
 * - `useVerificationToken` is `DELETE ... RETURNING`: two concurrent uses of one
 *   token cannot both succeed.
 * - `createUserAndAccount` is one transaction; the loser of a race on the unique
 *   e-mail or (provider, providerAccountId) rolls back and gets the winner.
 * @module
 */
import { occasionally, purgeVerificationTokens } from "./purge.js"
import type { ExpressionBuilder, Kysely, Selectable, Updateable } from "kysely"
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterSessionRecord,
  AdapterTwoFactor,
  AdapterUser,
  SessionRecordFilter,
  VerificationToken,
} from "@tessera/core/adapters"
import { redactError } from "./redact.js"
import type {
  AccountsTable,
  AuthenticatorsTable,
  Database,
  SessionsTable,
  SqlDialect,
  Timestamp,
  TwoFactorsTable,
  UsersTable,
} from "./schema.js"

function toTwoFactor(row: Selectable<TwoFactorsTable>): AdapterTwoFactor {
  return {
    userId: row.user_id,
    secret: row.secret,
    enabledAt: row.enabled_at == null ? null : toDate(row.enabled_at),
    lastUsedStep: row.last_used_step == null ? null : Number(row.last_used_step),
  }
}

type Promised<F> = F extends (...args: infer A) => infer R
  ? (...args: A) => Promise<Awaited<R>>
  : never

/**
 * Every method of `Adapter`, required, each returning a Promise.
 *
 * @see [Auth.js: Adapter](https://authjs.dev/reference/core/adapters#adapter)
 */
export type SqlAdapterMethods = {
  [
    K in Exclude<
      keyof Adapter,
      "deleteUser" | "linkAccount" | "unlinkAccount" | "deleteSession" | "deleteTwoFactor"
    >
  ]-?: Promised<NonNullable<Adapter[K]>>
} & {
  /** Returns the deleted user, or null if there was none. */
  deleteUser(userId: string): Promise<AdapterUser | null>
  linkAccount(account: AdapterAccount): Promise<AdapterAccount>
  /** Returns the unlinked account, or undefined if there was none. */
  unlinkAccount(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<AdapterAccount | undefined>
  /** Returns the deleted session, or null if there was none. */
  deleteSession(sessionToken: string): Promise<AdapterSession | null>
  deleteTwoFactor(userId: string): Promise<void>
}

// ---- conversions between rows and adapter objects ----

function toDate(value: Timestamp | string): Date {
  if (value instanceof Date) return new Date(value.valueOf())
  return new Date(typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value)
}

const toBool = (value: unknown) => value === true || value === 1 || value === "1" || value === "t"

function toUser(row: Selectable<UsersTable>): AdapterUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email as string,
    emailVerified: row.email_verified == null ? null : toDate(row.email_verified),
    image: row.image,
  }
}

/** What `updateAccount` may change. */
const TOKEN_COLUMNS = [
  "access_token",
  "refresh_token",
  "expires_at",
  "id_token",
  "scope",
  "token_type",
] as const

const ACCOUNT_TOKENS = [
  "refresh_token",
  "access_token",
  "token_type",
  "scope",
  "id_token",
  "session_state",
] as const

/** Unset token fields are left out (not `null`), as the `Account` type says. */
function toAccount(row: Selectable<AccountsTable>): AdapterAccount {
  const account: Record<string, unknown> = {
    userId: row.user_id,
    type: row.type,
    provider: row.provider,
    providerAccountId: row.provider_account_id,
  }
  for (const field of ACCOUNT_TOKENS) if (row[field] != null) account[field] = row[field]
  if (row.expires_at != null) account.expires_at = Number(row.expires_at)
  return account as unknown as AdapterAccount
}

function toAuthenticator(row: Selectable<AuthenticatorsTable>): AdapterAuthenticator {
  return {
    credentialID: row.credential_id,
    userId: row.user_id,
    providerAccountId: row.provider_account_id,
    credentialPublicKey: row.credential_public_key,
    counter: Number(row.counter),
    credentialDeviceType: row.credential_device_type,
    credentialBackedUp: toBool(row.credential_backed_up),
    transports: row.transports ?? null,
  }
}

/** A session row: the token, user and expiry, and the columns that make it a record (0003). */
type SessionRow = Pick<
  Selectable<SessionsTable>,
  | "session_token"
  | "user_id"
  | "expires"
  | "id"
  | "created_at"
  | "last_seen_at"
  | "user_agent"
  | "ip_prefix"
  | "provider"
  | "provider_account_id"
  | "provider_session_id"
>

/** A session row; the record fields are left out where the row has none (rows from before 0003). */
const toSession = (row: SessionRow): AdapterSession => {
  const session: AdapterSession = {
    sessionToken: row.session_token,
    userId: row.user_id,
    expires: toDate(row.expires),
  }
  if (row.id != null) Object.assign(session, recordFields(row))
  return session
}

function recordFields(row: SessionRow) {
  const created = toDate(row.created_at ?? row.expires)
  return {
    id: row.id!,
    createdAt: created,
    lastSeenAt: row.last_seen_at == null ? created : toDate(row.last_seen_at),
    userAgent: row.user_agent,
    ipPrefix: row.ip_prefix,
    provider: row.provider,
    providerAccountId: row.provider_account_id,
    providerSessionId: row.provider_session_id,
  }
}

const toRecord = (row: SessionRow): AdapterSessionRecord => ({
  ...recordFields(row),
  userId: row.user_id,
  expires: toDate(row.expires),
})

/** The `session_token` of a JWT session's row: no SHA-256 (hex) of a cookie is ever this. */
export const recordToken = (id: string) => `record:${id}`

const toToken = (row: {
  identifier: string
  token: string
  expires: Timestamp
}): VerificationToken => ({
  identifier: row.identifier,
  token: row.token,
  expires: toDate(row.expires),
})

/**
 * A unique or primary-key violation, on either engine.
 *
 * @param error What a query threw.
 * @see [PostgreSQL error codes](https://www.postgresql.org/docs/current/errcodes-appendix.html) (`23505`)
 * @see [SQLite result codes](https://www.sqlite.org/rescode.html#constraint_unique) (`SQLITE_CONSTRAINT_UNIQUE`)
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return (
    code === "23505" ||
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  )
}

export interface CreateAdapterOptions {
  dialect: SqlDialect
  /** Strings scrubbed from every error (the connection string, the password). */
  secrets?: string[]
}

/** The adapter methods for a Kysely instance whose schema is migrated. */
export function createAdapterMethods(
  db: Kysely<Database>,
  options: CreateAdapterOptions,
): SqlAdapterMethods {
  const { dialect, secrets = [] } = options
  const sqlite = dialect === "sqlite"
  // Values written to the engine's column types.
  const date = (d: Date): Timestamp => (sqlite ? d.valueOf() : d)
  const optionalDate = (d: Date | null | undefined) => (d == null ? null : date(d))
  const bool = (b: boolean) => (sqlite ? (b ? 1 : 0) : b)
  // PostgreSQL text cannot hold a zero byte (the insert fails): a display name or picture URL
  // from a provider, which its user may have typed, keeps the rest, so that user can sign in.
  const profileText = <T extends string | null | undefined>(value: T): T =>
    (sqlite || typeof value !== "string" ? value : value.replaceAll("\0", "")) as T
  const purgeTokensSometimes = occasionally(() => purgeVerificationTokens(db, dialect))

  /** `getSessionAndUser`'s one indexed join. */
  const sessionAndUserQuery = (sessionToken: string) =>
    db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .select([
        "sessions.session_token",
        "sessions.user_id",
        "sessions.expires",
        "sessions.id as session_id",
        "sessions.created_at",
        "sessions.last_seen_at",
        "sessions.user_agent",
        "sessions.ip_prefix",
        "sessions.provider",
        "sessions.provider_account_id",
        "sessions.provider_session_id",
        "users.id",
        "users.name",
        "users.email",
        "users.email_verified",
        "users.image",
      ])
      .where("sessions.session_token", "=", sessionToken)
  /**
   * That query compiled (its SQL and one parameter, the token), once per
   * adapter: building and compiling it cost a database session check more than
   * running it.
   */
  let sessionAndUser: ReturnType<ReturnType<typeof sessionAndUserQuery>["compile"]> | undefined

  const userRow = (user: AdapterUser) => ({
    id: user.id ?? crypto.randomUUID(),
    name: profileText(user.name ?? null),
    email: user.email ?? null,
    email_verified: optionalDate(user.emailVerified),
    image: profileText(user.image ?? null),
  })

  const accountRow = (account: AdapterAccount) => ({
    user_id: account.userId,
    type: account.type,
    provider: account.provider,
    provider_account_id: account.providerAccountId,
    refresh_token: account.refresh_token ?? null,
    access_token: account.access_token ?? null,
    expires_at: account.expires_at ?? null,
    token_type: account.token_type ?? null,
    scope: account.scope ?? null,
    id_token: account.id_token ?? null,
    session_state: typeof account.session_state === "string" ? account.session_state : null,
  })

  const recordRow = (record: Partial<AdapterSessionRecord>) => ({
    id: record.id ?? null,
    created_at: optionalDate(record.createdAt),
    last_seen_at: optionalDate(record.lastSeenAt ?? record.createdAt),
    user_agent: record.userAgent ?? null,
    ip_prefix: record.ipPrefix ?? null,
    provider: record.provider ?? null,
    provider_account_id: record.providerAccountId ?? null,
    provider_session_id: record.providerSessionId ?? null,
  })

  function recordFilter(eb: ExpressionBuilder<Database, "sessions">, filter: SessionRecordFilter) {
    const conditions = []
    if (filter.id !== undefined) conditions.push(eb("id", "=", filter.id))
    if (filter.userId !== undefined) conditions.push(eb("user_id", "=", filter.userId))
    if (filter.exceptId !== undefined) conditions.push(eb("id", "!=", filter.exceptId))
    if (filter.provider !== undefined) conditions.push(eb("provider", "=", filter.provider))
    if (filter.providerAccountId !== undefined)
      conditions.push(eb("provider_account_id", "=", filter.providerAccountId))
    if (filter.providerSessionId !== undefined)
      conditions.push(eb("provider_session_id", "=", filter.providerSessionId))
    return eb.and(conditions)
  }

  async function userByAccount(provider: string, providerAccountId: string) {
    const row = await db
      .selectFrom("accounts")
      .innerJoin("users", "users.id", "accounts.user_id")
      .selectAll("users")
      .where("accounts.provider", "=", provider)
      .where("accounts.provider_account_id", "=", providerAccountId)
      .executeTakeFirst()
    return row ? toUser(row) : null
  }

  async function account(provider: string, providerAccountId: string) {
    const row = await db
      .selectFrom("accounts")
      .selectAll()
      .where("provider", "=", provider)
      .where("provider_account_id", "=", providerAccountId)
      .executeTakeFirst()
    return row ? toAccount(row) : null
  }

  const methods: SqlAdapterMethods = {
    async createUser(user) {
      const row = await db
        .insertInto("users")
        .values(userRow(user))
        .returningAll()
        .executeTakeFirstOrThrow()
      return toUser(row)
    },

    async getUser(id) {
      const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst()
      return row ? toUser(row) : null
    },

    async getUserByEmail(email) {
      // No stored address has a zero byte (PostgreSQL text cannot hold one, and would
      // throw on the query): such an address is nobody's, on either database.
      if (email.includes("\0")) return null
      const row = await db
        .selectFrom("users")
        .selectAll()
        .where("email", "=", email)
        .executeTakeFirst()
      return row ? toUser(row) : null
    },

    async getUserByAccount({ provider, providerAccountId }) {
      return userByAccount(provider, providerAccountId)
    },

    async updateUser(user) {
      const set: Updateable<UsersTable> = {}
      if (user.name !== undefined) set.name = profileText(user.name)
      if (user.email !== undefined) set.email = user.email
      if (user.emailVerified !== undefined) set.email_verified = optionalDate(user.emailVerified)
      if (user.image !== undefined) set.image = profileText(user.image)
      const row = Object.keys(set).length
        ? await db
            .updateTable("users")
            .set(set)
            .where("id", "=", user.id)
            .returningAll()
            .executeTakeFirst()
        : await db.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirst()
      if (!row) throw new Error("updateUser: no user with this id")
      return toUser(row)
    },

    async deleteUser(userId) {
      // Explicit deletes, not only ON DELETE CASCADE: a Kysely instance brought
      // by the app may run SQLite without `PRAGMA foreign_keys = ON`.
      const row = await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("sessions").where("user_id", "=", userId).execute()
        await trx.deleteFrom("accounts").where("user_id", "=", userId).execute()
        await trx.deleteFrom("authenticators").where("user_id", "=", userId).execute()
        await trx.deleteFrom("two_factor_recovery_codes").where("user_id", "=", userId).execute()
        await trx.deleteFrom("two_factors").where("user_id", "=", userId).execute()
        return trx.deleteFrom("users").where("id", "=", userId).returningAll().executeTakeFirst()
      })
      return row ? toUser(row) : null
    },

    async linkAccount(input) {
      const row = await db
        .insertInto("accounts")
        .values(accountRow(input))
        .returningAll()
        .executeTakeFirstOrThrow()
      return toAccount(row)
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const row = await db
        .deleteFrom("accounts")
        .where("provider", "=", provider)
        .where("provider_account_id", "=", providerAccountId)
        .returningAll()
        .executeTakeFirst()
      return row ? toAccount(row) : undefined
    },

    async getAccount(providerAccountId, provider) {
      return account(provider, providerAccountId)
    },

    async createUserAndAccount(user, input) {
      const users = userRow(user)
      const accounts = accountRow({ ...input, userId: users.id })
      try {
        const created = await db.transaction().execute(async (trx) => {
          const u = await trx
            .insertInto("users")
            .values(users)
            .returningAll()
            .executeTakeFirstOrThrow()
          const a = await trx
            .insertInto("accounts")
            .values(accounts)
            .returningAll()
            .executeTakeFirstOrThrow()
          return { user: toUser(u), account: toAccount(a) }
        })
        return { ...created, created: true }
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        // Rolled back. If this identity won the race elsewhere (its transaction has
        // committed, or we would not have seen the violation), return the winner.
        // A taken e-mail with no such account is someone else's: fail, never hand
        // out their user.
        const [existing, linked] = await Promise.all([
          userByAccount(input.provider, input.providerAccountId),
          account(input.provider, input.providerAccountId),
        ])
        if (existing && linked) return { user: existing, account: linked, created: false }
        throw error
      }
    },

    async createSession(session) {
      const row = await db
        .insertInto("sessions")
        .values({
          ...recordRow(session),
          session_token: session.sessionToken,
          user_id: session.userId,
          expires: date(session.expires),
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toSession(row)
    },

    async getSessionAndUser(sessionToken) {
      // The query of every request: built and compiled once, then run with each token.
      sessionAndUser ??= sessionAndUserQuery(sessionToken).compile()
      const query: typeof sessionAndUser = { ...sessionAndUser, parameters: [sessionToken] }
      const { rows } = await db.executeQuery(query)
      const row = rows[0]
      if (!row) return null
      const session = toSession({ ...row, id: row.session_id })
      const now = new Date()
      if (session.expires <= now) {
        // Only if still expired: a concurrent request may just have extended it.
        await db
          .deleteFrom("sessions")
          .where("session_token", "=", sessionToken)
          .where("expires", "<=", date(now))
          .execute()
        return null
      }
      return { session, user: toUser(row) }
    },

    async updateSession(session) {
      const set: { expires?: Timestamp; user_id?: string; last_seen_at?: Timestamp } = {}
      if (session.expires !== undefined) set.expires = date(session.expires)
      if (session.userId !== undefined) set.user_id = session.userId
      if (session.lastSeenAt !== undefined) set.last_seen_at = date(session.lastSeenAt)
      const row = Object.keys(set).length
        ? await db
            .updateTable("sessions")
            .set(set)
            .where("session_token", "=", session.sessionToken)
            .returningAll()
            .executeTakeFirst()
        : await db
            .selectFrom("sessions")
            .selectAll()
            .where("session_token", "=", session.sessionToken)
            .executeTakeFirst()
      return row ? toSession(row) : null
    },

    async deleteSession(sessionToken) {
      const row = await db
        .deleteFrom("sessions")
        .where("session_token", "=", sessionToken)
        .returningAll()
        .executeTakeFirst()
      return row ? toSession(row) : null
    },

    async createSessionRecord(record) {
      const row = await db
        .insertInto("sessions")
        .values({
          ...recordRow(record),
          session_token: recordToken(record.id),
          user_id: record.userId,
          expires: date(record.expires),
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toRecord(row)
    },

    async touchSessionRecord(id, patch) {
      // One statement: the check (live?) and the write, so revalidation is one round trip.
      const row = await db
        .updateTable("sessions")
        .set({
          last_seen_at: date(patch.lastSeenAt),
          ...(patch.expires ? { expires: date(patch.expires) } : {}),
        })
        .where("id", "=", id)
        .where("expires", ">", date(new Date()))
        .returningAll()
        .executeTakeFirst()
      return row ? toRecord(row) : null
    },

    async getSessionRecord(id) {
      const row = await db
        .selectFrom("sessions")
        .selectAll()
        .where("id", "=", id)
        .where("expires", ">", date(new Date()))
        .executeTakeFirst()
      return row ? toRecord(row) : null
    },

    async listSessionRecords(userId) {
      const rows = await db
        .selectFrom("sessions")
        .selectAll()
        .where("user_id", "=", userId)
        .where("id", "is not", null)
        .where("expires", ">", date(new Date()))
        .execute()
      return rows.map(toRecord)
    },

    async deleteSessionRecords(filter) {
      if (!filter.id && !filter.userId && !filter.providerAccountId && !filter.providerSessionId)
        throw new Error("deleteSessionRecords: the filter names no session or user")
      const rows = await db
        .deleteFrom("sessions")
        .where((eb) => recordFilter(eb, filter))
        .returningAll()
        .execute()
      return rows.filter((row) => row.id != null).map(toRecord)
    },

    async listAccountsByUserId(userId) {
      const rows = await db
        .selectFrom("accounts")
        .selectAll()
        .where("user_id", "=", userId)
        .execute()
      return rows.map(toAccount)
    },

    async updateAccount(tokens, leaseId, expected) {
      const set: Updateable<AccountsTable> = {}
      for (const field of TOKEN_COLUMNS)
        if (tokens[field] !== undefined) (set as Record<string, unknown>)[field] = tokens[field]
      if (leaseId !== undefined) {
        set.refresh_lease_id = null
        set.refresh_lease_until = null
      }
      let query = db
        .updateTable("accounts")
        .set(set)
        .where("provider", "=", tokens.provider)
        .where("provider_account_id", "=", tokens.providerAccountId)
      if (leaseId !== undefined) query = query.where("refresh_lease_id", "=", leaseId)
      // The compare-and-set of a refresh: not over tokens a sign-in stored meanwhile.
      if (expected !== undefined) query = query.where("refresh_token", "=", expected.refresh_token)
      // ... nor over a sign-in's that kept the refresh token (the provider sent none again).
      if (expected?.access_token !== undefined) {
        const access = expected.access_token
        query =
          access === null
            ? query.where("access_token", "is", null)
            : query.where("access_token", "=", access)
      }
      if (!Object.keys(set).length) return account(tokens.provider, tokens.providerAccountId)
      const row = await query.returningAll().executeTakeFirst()
      return row ? toAccount(row) : null
    },

    async leaseAccountRefresh({ provider, providerAccountId, leaseId, until }) {
      // The row-level guard: one UPDATE takes the lease only if no unexpired one holds it.
      const row = await db
        .updateTable("accounts")
        .set({ refresh_lease_id: leaseId, refresh_lease_until: date(until) })
        .where("provider", "=", provider)
        .where("provider_account_id", "=", providerAccountId)
        .where((eb) =>
          eb.or([
            eb("refresh_lease_until", "is", null),
            eb("refresh_lease_until", "<=", date(new Date())),
          ]),
        )
        .returningAll()
        .executeTakeFirst()
      return row ? toAccount(row) : null
    },

    async createVerificationToken(token) {
      const row = await db
        .insertInto("verification_tokens")
        .values({ identifier: token.identifier, token: token.token, expires: date(token.expires) })
        .returningAll()
        .executeTakeFirstOrThrow()
      // Links and used challenges pile up otherwise: clear the expired ones now and then.
      purgeTokensSometimes()
      return toToken(row)
    },

    async useVerificationToken({ identifier, token }) {
      const row = await db
        .deleteFrom("verification_tokens")
        .where("identifier", "=", identifier)
        .where("token", "=", token)
        .returningAll()
        .executeTakeFirst()
      return row ? toToken(row) : null
    },

    async getAuthenticator(credentialID) {
      const row = await db
        .selectFrom("authenticators")
        .selectAll()
        .where("credential_id", "=", credentialID)
        .executeTakeFirst()
      return row ? toAuthenticator(row) : null
    },

    async createAuthenticator(authenticator) {
      const row = await db
        .insertInto("authenticators")
        .values({
          credential_id: authenticator.credentialID,
          user_id: authenticator.userId,
          provider_account_id: authenticator.providerAccountId,
          credential_public_key: authenticator.credentialPublicKey,
          counter: authenticator.counter,
          credential_device_type: authenticator.credentialDeviceType,
          credential_backed_up: bool(authenticator.credentialBackedUp),
          transports: authenticator.transports ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      return toAuthenticator(row)
    },

    async listAuthenticatorsByUserId(userId) {
      const rows = await db
        .selectFrom("authenticators")
        .selectAll()
        .where("user_id", "=", userId)
        .execute()
      return rows.map(toAuthenticator)
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      // Never lowers the counter: of two sign-ins verified against the same stored value
      // (a cloned authenticator racing the original), the lower one must not undo the higher.
      const row =
        (await db
          .updateTable("authenticators")
          .set({ counter: newCounter })
          .where("credential_id", "=", credentialID)
          .where("counter", "<", newCounter)
          .returningAll()
          .executeTakeFirst()) ??
        (await db
          .selectFrom("authenticators")
          .selectAll()
          .where("credential_id", "=", credentialID)
          .executeTakeFirst())
      if (!row)
        throw new Error("updateAuthenticatorCounter: no authenticator with this credential id")
      return toAuthenticator(row)
    },

    async swapAuthenticatorCounter(credentialID, expected, newCounter) {
      // One conditional update (a compare-and-set): of two sign-ins verified against the
      // same stored counter, one matches; the other changes nothing and is refused.
      const result = await db
        .updateTable("authenticators")
        .set({ counter: newCounter })
        .where("credential_id", "=", credentialID)
        .where("counter", "=", expected)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    async createTwoFactor(twoFactor, recoveryCodes) {
      const row = {
        user_id: twoFactor.userId,
        secret: twoFactor.secret,
        enabled_at: null,
        last_used_step: null,
      }
      try {
        return await db.transaction().execute(async (trx) => {
          // Only an unconfirmed factor is replaced: a confirmed one keeps its row,
          // and the insert then fails on the primary key (and rolls all back).
          await trx
            .deleteFrom("two_factors")
            .where("user_id", "=", twoFactor.userId)
            .where("enabled_at", "is", null)
            .execute()
          const created = await trx
            .insertInto("two_factors")
            .values(row)
            .returningAll()
            .executeTakeFirstOrThrow()
          await trx
            .deleteFrom("two_factor_recovery_codes")
            .where("user_id", "=", twoFactor.userId)
            .execute()
          if (recoveryCodes.length)
            await trx
              .insertInto("two_factor_recovery_codes")
              .values(recoveryCodes.map((code_hash) => ({ user_id: twoFactor.userId, code_hash })))
              .execute()
          return toTwoFactor(created)
        })
      } catch (error) {
        // A confirmed factor (or one confirmed meanwhile): nothing written.
        if (isUniqueViolation(error)) return null
        throw error
      }
    },

    async getTwoFactor(userId) {
      const row = await db
        .selectFrom("two_factors")
        .selectAll()
        .where("user_id", "=", userId)
        .executeTakeFirst()
      return row ? toTwoFactor(row) : null
    },

    async enableTwoFactor(userId, secret) {
      let update = db
        .updateTable("two_factors")
        .set({ enabled_at: date(new Date()) })
        .where("user_id", "=", userId)
        .where("enabled_at", "is", null)
      if (secret !== undefined) update = update.where("secret", "=", secret)
      const row = await update.returningAll().executeTakeFirst()
      return row ? toTwoFactor(row) : null
    },

    async useTwoFactorStep(userId, step) {
      // One conditional update: of two concurrent uses of a step, one matches.
      const result = await db
        .updateTable("two_factors")
        .set({ last_used_step: step })
        .where("user_id", "=", userId)
        .where((eb) => eb.or([eb("last_used_step", "is", null), eb("last_used_step", "<", step)]))
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },

    async useRecoveryCode(userId, codeHash) {
      const result = await db
        .deleteFrom("two_factor_recovery_codes")
        .where("user_id", "=", userId)
        .where("code_hash", "=", codeHash)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },

    async deleteTwoFactor(userId) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("two_factor_recovery_codes").where("user_id", "=", userId).execute()
        await trx.deleteFrom("two_factors").where("user_id", "=", userId).execute()
      })
    },
  }

  // Every error leaves with connection secrets scrubbed (see redact.ts).
  for (const key of Object.keys(methods) as (keyof SqlAdapterMethods)[]) {
    const fn = methods[key] as (...args: unknown[]) => Promise<unknown>
    ;(methods as Record<string, unknown>)[key] = async (...args: unknown[]) => {
      try {
        return await fn(...args)
      } catch (error) {
        throw redactError(error, secrets)
      }
    }
  }
  return methods
}
