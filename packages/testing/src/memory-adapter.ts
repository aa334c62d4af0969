/**
 * An in-memory adapter: every `Adapter` method over plain `Map`s. For tests,
 * demos and single-process prototypes; everything is lost when the process ends.
 *
 * It follows the same rules as the SQL adapter, so code tested against it behaves
 * the same in production: e-mail and (provider, providerAccountId) are unique,
 * deleting a user cascades, verification tokens, TOTP steps and recovery codes
 * are single use, expired sessions are deleted when read, and every method
 * returns copies, never stored objects. Session records (Tessera's session
 * management) live in `store.sessions` too: a database session's row is its
 * record; a JWT session's record is kept under `recordKey(id)`.
 *
 * @example
 * ```ts
 * import { MemoryAdapter } from "@tessera/testing"
 * const config = { adapter: MemoryAdapter(), providers: [...] }
 * ```
 * @module
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterAccountTokens,
  AdapterSession,
  AdapterSessionRecord,
  AdapterTwoFactor,
  AdapterUser,
  SessionRecordFilter,
  VerificationToken,
} from "@tessera/core/adapters"

/**
 * The maps behind a `MemoryAdapter`. Pass your own to inspect or seed them.
 *
 * @see [docs/testing.md: MemoryAdapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#memoryadapter)
 */
export interface MemoryStore {
  users: Map<string, AdapterUser>
  /** Keyed by `accountKey(provider, providerAccountId)`. */
  accounts: Map<string, AdapterAccount>
  sessions: Map<string, AdapterSession>
  /** Keyed by `tokenKey(identifier, token)`. */
  verificationTokens: Map<string, VerificationToken>
  authenticators: Map<string, AdapterAuthenticator>
  /** Second factors, by user id. */
  twoFactors: Map<string, AdapterTwoFactor>
  /** Recovery-code hashes, by user id. */
  recoveryCodes: Map<string, Set<string>>
}

/**
 * An empty {@link MemoryStore}.
 *
 * @see [docs/testing.md: MemoryAdapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#memoryadapter)
 */
export function createMemoryStore(): MemoryStore {
  return {
    users: new Map(),
    accounts: new Map(),
    sessions: new Map(),
    verificationTokens: new Map(),
    authenticators: new Map(),
    twoFactors: new Map(),
    recoveryCodes: new Map(),
  }
}

/**
 * The key of an account in `MemoryStore.accounts`.
 *
 * @see [docs/testing.md: MemoryAdapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#memoryadapter)
 */
export const accountKey = (provider: string, providerAccountId: string) =>
  JSON.stringify([provider, providerAccountId])

/**
 * The key of a token in `MemoryStore.verificationTokens`.
 *
 * @see [docs/testing.md: MemoryAdapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#memoryadapter)
 */
export const tokenKey = (identifier: string, token: string) => JSON.stringify([identifier, token])

/**
 * Thrown when a write would break a uniqueness rule (as a database would).
 *
 * @see [docs/testing.md: testing your own adapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-adapter)
 */
export class UniqueConstraintError extends Error {
  override name = "UniqueConstraintError"
  readonly code = "UNIQUE_VIOLATION"
}

const copyDate = (d: Date | null | undefined) => (d == null ? null : new Date(d.valueOf()))

// Only the known fields are kept, as a database table would: providers' extra
// profile fields do not end up stored (or shared between callers by reference).
function copyUser(u: AdapterUser): AdapterUser {
  return {
    id: u.id,
    name: u.name ?? null,
    email: u.email ?? null,
    emailVerified: copyDate(u.emailVerified),
    image: u.image ?? null,
  }
}

const ACCOUNT_FIELDS = [
  "userId",
  "type",
  "provider",
  "providerAccountId",
  "refresh_token",
  "access_token",
  "expires_at",
  "token_type",
  "scope",
  "id_token",
  "session_state",
] as const

const TOKEN_FIELDS = [
  "access_token",
  "refresh_token",
  "expires_at",
  "id_token",
  "scope",
  "token_type",
] as const satisfies readonly (keyof AdapterAccountTokens)[]

function copyAccount(a: AdapterAccount): AdapterAccount {
  const out: Record<string, unknown> = {}
  for (const field of ACCOUNT_FIELDS) if (a[field] != null) out[field] = a[field]
  return out as unknown as AdapterAccount
}

const copySession = (s: AdapterSession): AdapterSession => {
  const copy: AdapterSession = {
    sessionToken: s.sessionToken,
    userId: s.userId,
    expires: new Date(s.expires.valueOf()),
  }
  for (const field of RECORD_FIELDS) {
    const value = s[field]
    if (value !== undefined)
      (copy as unknown as Record<string, unknown>)[field] =
        value instanceof Date ? new Date(value.valueOf()) : value
  }
  return copy
}

const RECORD_FIELDS = [
  "id",
  "createdAt",
  "lastSeenAt",
  "userAgent",
  "ipPrefix",
  "provider",
  "providerAccountId",
  "providerSessionId",
] as const

/** A session row as a record: the record fields of a row made with them. */
function toRecord(s: AdapterSession): AdapterSessionRecord | null {
  if (!s.id) return null
  return {
    id: s.id,
    userId: s.userId,
    createdAt: new Date((s.createdAt ?? s.expires).valueOf()),
    lastSeenAt: new Date((s.lastSeenAt ?? s.createdAt ?? s.expires).valueOf()),
    expires: new Date(s.expires.valueOf()),
    userAgent: s.userAgent ?? null,
    ipPrefix: s.ipPrefix ?? null,
    provider: s.provider ?? null,
    providerAccountId: s.providerAccountId ?? null,
    providerSessionId: s.providerSessionId ?? null,
  }
}

/**
 * The key a JWT session's record is kept under in `MemoryStore.sessions` (no cookie hashes to it).
 *
 * @see [docs/testing.md: MemoryAdapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#memoryadapter)
 */
export const recordKey = (id: string) => `record:${id}`

function matches(record: AdapterSessionRecord, filter: SessionRecordFilter): boolean {
  return (
    (filter.id === undefined || record.id === filter.id) &&
    (filter.userId === undefined || record.userId === filter.userId) &&
    (filter.exceptId === undefined || record.id !== filter.exceptId) &&
    (filter.provider === undefined || record.provider === filter.provider) &&
    (filter.providerAccountId === undefined ||
      record.providerAccountId === filter.providerAccountId) &&
    (filter.providerSessionId === undefined ||
      record.providerSessionId === filter.providerSessionId)
  )
}

const copyToken = (t: VerificationToken): VerificationToken => ({
  identifier: t.identifier,
  token: t.token,
  expires: new Date(t.expires.valueOf()),
})

const copyTwoFactor = (t: AdapterTwoFactor): AdapterTwoFactor => ({
  userId: t.userId,
  secret: t.secret,
  enabledAt: copyDate(t.enabledAt),
  lastUsedStep: t.lastUsedStep ?? null,
})

const copyAuthenticator = (a: AdapterAuthenticator): AdapterAuthenticator => ({
  credentialID: a.credentialID,
  userId: a.userId,
  providerAccountId: a.providerAccountId,
  credentialPublicKey: a.credentialPublicKey,
  counter: a.counter,
  credentialDeviceType: a.credentialDeviceType,
  credentialBackedUp: a.credentialBackedUp,
  transports: a.transports ?? null,
})

/**
 * An adapter that keeps everything in memory. Each call creates an empty store
 * unless one is passed in.
 *
 * @param store The maps to keep data in; a new, empty store by default.
 * @see [docs/testing.md: MemoryAdapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#memoryadapter)
 * @see [Auth.js: Adapter](https://authjs.dev/reference/core/adapters#adapter)
 */
export function MemoryAdapter(
  store: MemoryStore = createMemoryStore(),
): Adapter & { store: MemoryStore } {
  const { users, accounts, sessions, verificationTokens, authenticators } = store
  /** Refresh leases (`leaseAccountRefresh`), by account key. */
  const leases = new Map<string, { id: string; until: number }>()
  // Stores made before second factors existed get their maps on first use.
  const twoFactors = (store.twoFactors ??= new Map())
  const recoveryCodes = (store.recoveryCodes ??= new Map())

  function emailTaken(email: string | null | undefined, exceptId?: string): boolean {
    if (email == null) return false
    for (const user of users.values()) if (user.email === email && user.id !== exceptId) return true
    return false
  }

  function requireUser(userId: string): void {
    if (!users.has(userId)) throw new Error("No user with this id (foreign key)")
  }

  // Every method below is synchronous up to its return: no other call can run in
  // between a check and the write that depends on it, so each one is atomic.
  function insertUser(user: AdapterUser): AdapterUser {
    const stored = copyUser({ ...user, id: user.id ?? crypto.randomUUID() })
    if (users.has(stored.id)) throw new UniqueConstraintError("A user with this id already exists")
    if (emailTaken(stored.email))
      throw new UniqueConstraintError("A user with this e-mail already exists")
    users.set(stored.id, stored)
    return copyUser(stored)
  }

  function insertAccount(account: AdapterAccount): AdapterAccount {
    requireUser(account.userId)
    const key = accountKey(account.provider, account.providerAccountId)
    if (accounts.has(key))
      throw new UniqueConstraintError("This provider account is already linked")
    const stored = copyAccount(account)
    accounts.set(key, stored)
    return copyAccount(stored)
  }

  function userByAccount(provider: string, providerAccountId: string): AdapterUser | null {
    const account = accounts.get(accountKey(provider, providerAccountId))
    const user = account && users.get(account.userId)
    return user ? copyUser(user) : null
  }

  return {
    store,

    async createUser(user) {
      return insertUser(user)
    },

    async getUser(id) {
      const user = users.get(id)
      return user ? copyUser(user) : null
    },

    async getUserByEmail(email) {
      for (const user of users.values()) if (user.email === email) return copyUser(user)
      return null
    },

    async getUserByAccount({ provider, providerAccountId }) {
      return userByAccount(provider, providerAccountId)
    },

    async updateUser(patch) {
      const current = users.get(patch.id)
      if (!current) throw new Error("No user with this id")
      const next = copyUser({ ...current, ...stripUndefined(patch) })
      if (emailTaken(next.email, next.id))
        throw new UniqueConstraintError("A user with this e-mail already exists")
      users.set(next.id, next)
      return copyUser(next)
    },

    async deleteUser(userId) {
      const user = users.get(userId)
      if (!user) return null
      users.delete(userId)
      for (const [key, account] of accounts) if (account.userId === userId) accounts.delete(key)
      for (const [key, session] of sessions) if (session.userId === userId) sessions.delete(key)
      for (const [key, authenticator] of authenticators)
        if (authenticator.userId === userId) authenticators.delete(key)
      twoFactors.delete(userId)
      recoveryCodes.delete(userId)
      return copyUser(user)
    },

    async linkAccount(account) {
      return insertAccount(account)
    },

    async unlinkAccount({ provider, providerAccountId }) {
      const key = accountKey(provider, providerAccountId)
      const account = accounts.get(key)
      if (!account) return undefined
      accounts.delete(key)
      return copyAccount(account)
    },

    async getAccount(providerAccountId, provider) {
      const account = accounts.get(accountKey(provider, providerAccountId))
      return account ? copyAccount(account) : null
    },

    async createUserAndAccount(user, account) {
      const existing = userByAccount(account.provider, account.providerAccountId)
      if (existing) {
        const linked = accounts.get(accountKey(account.provider, account.providerAccountId))!
        return { user: existing, account: copyAccount(linked), created: false }
      }
      // Both writes are checked before either is made, so a failure leaves nothing behind.
      const id = user.id ?? crypto.randomUUID()
      if (users.has(id)) throw new UniqueConstraintError("A user with this id already exists")
      if (emailTaken(user.email))
        throw new UniqueConstraintError("A user with this e-mail already exists")
      const created = insertUser({ ...user, id })
      const linked = insertAccount({ ...account, userId: created.id })
      return { user: created, account: linked, created: true }
    },

    async createSession(session) {
      requireUser(session.userId)
      if (sessions.has(session.sessionToken))
        throw new UniqueConstraintError("This session token already exists")
      sessions.set(session.sessionToken, copySession(session))
      return copySession(session)
    },

    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      if (!session) return null
      const user = users.get(session.userId)
      if (!user || session.expires.valueOf() <= Date.now()) {
        sessions.delete(sessionToken)
        return null
      }
      return { session: copySession(session), user: copyUser(user) }
    },

    async updateSession(patch) {
      const current = sessions.get(patch.sessionToken)
      if (!current) return null
      const next = copySession({ ...current, ...stripUndefined(patch) })
      sessions.set(next.sessionToken, next)
      return copySession(next)
    },

    async deleteSession(sessionToken) {
      const session = sessions.get(sessionToken)
      if (!session) return null
      sessions.delete(sessionToken)
      return copySession(session)
    },

    async createSessionRecord(record) {
      // No requireUser: a credentials user `authorize` returned need not be stored here.
      const key = recordKey(record.id)
      for (const session of sessions.values())
        if (session.id === record.id)
          throw new UniqueConstraintError("This session id already exists")
      sessions.set(key, copySession({ ...record, sessionToken: key }))
      return toRecord(sessions.get(key)!)!
    },

    async touchSessionRecord(id, patch) {
      for (const [key, session] of sessions) {
        if (session.id !== id) continue
        if (session.expires.valueOf() <= Date.now()) return null
        const next = copySession({ ...session, ...stripUndefined(patch) })
        sessions.set(key, next)
        return toRecord(next)
      }
      return null
    },

    async getSessionRecord(id) {
      for (const session of sessions.values()) {
        const record = session.id === id ? toRecord(session) : null
        if (record) return record.expires.valueOf() > Date.now() ? record : null
      }
      return null
    },

    async listSessionRecords(userId) {
      const now = Date.now()
      const out: AdapterSessionRecord[] = []
      for (const session of sessions.values()) {
        const record = session.userId === userId ? toRecord(session) : null
        if (record && record.expires.valueOf() > now) out.push(record)
      }
      return out
    },

    async deleteSessionRecords(filter) {
      const out: AdapterSessionRecord[] = []
      for (const [key, session] of sessions) {
        const record = toRecord(session)
        if (record && matches(record, filter)) {
          sessions.delete(key)
          out.push(record)
        }
      }
      return out
    },

    async listAccountsByUserId(userId) {
      const out: AdapterAccount[] = []
      for (const account of accounts.values())
        if (account.userId === userId) out.push(copyAccount(account))
      return out
    },

    async updateAccount(tokens, leaseId, expected) {
      const key = accountKey(tokens.provider, tokens.providerAccountId)
      const account = accounts.get(key)
      if (!account) return null
      const lease = leases.get(key)
      if (leaseId !== undefined && lease?.id !== leaseId) return null
      if (expected !== undefined && account.refresh_token !== expected.refresh_token) return null
      if (
        expected?.access_token !== undefined &&
        (account.access_token ?? null) !== expected.access_token
      )
        return null
      const next: Record<string, unknown> = { ...account }
      for (const field of TOKEN_FIELDS) {
        const value = tokens[field]
        if (value === null) delete next[field]
        else if (value !== undefined) next[field] = value
      }
      accounts.set(key, copyAccount(next as unknown as AdapterAccount))
      if (leaseId !== undefined) leases.delete(key)
      return copyAccount(accounts.get(key)!)
    },

    async leaseAccountRefresh({ provider, providerAccountId, leaseId, until }) {
      const key = accountKey(provider, providerAccountId)
      const account = accounts.get(key)
      if (!account) return null
      const lease = leases.get(key)
      if (lease && lease.until > Date.now()) return null
      leases.set(key, { id: leaseId, until: until.valueOf() })
      return copyAccount(account)
    },

    async createVerificationToken(token) {
      const key = tokenKey(token.identifier, token.token)
      if (verificationTokens.has(key))
        throw new UniqueConstraintError("This verification token already exists")
      verificationTokens.set(key, copyToken(token))
      return copyToken(token)
    },

    async useVerificationToken({ identifier, token }) {
      const key = tokenKey(identifier, token)
      const found = verificationTokens.get(key)
      if (!found) return null
      verificationTokens.delete(key)
      return copyToken(found)
    },

    async getAuthenticator(credentialID) {
      const found = authenticators.get(credentialID)
      return found ? copyAuthenticator(found) : null
    },

    async createAuthenticator(authenticator) {
      requireUser(authenticator.userId)
      if (authenticators.has(authenticator.credentialID)) {
        throw new UniqueConstraintError("This credential id already exists")
      }
      authenticators.set(authenticator.credentialID, copyAuthenticator(authenticator))
      return copyAuthenticator(authenticator)
    },

    async listAuthenticatorsByUserId(userId) {
      const out: AdapterAuthenticator[] = []
      for (const a of authenticators.values())
        if (a.userId === userId) out.push(copyAuthenticator(a))
      return out
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      const found = authenticators.get(credentialID)
      if (!found) throw new Error("No authenticator with this credential id")
      // Never lowers it, as `@tessera/sql` (a clone's lower counter must not undo the original's).
      const next = { ...found, counter: Math.max(found.counter, newCounter) }
      authenticators.set(credentialID, next)
      return copyAuthenticator(next)
    },

    async swapAuthenticatorCounter(credentialID, expected, newCounter) {
      // No await between the check and the write: of two concurrent swaps from one value, one wins.
      const found = authenticators.get(credentialID)
      if (!found || found.counter !== expected) return false
      authenticators.set(credentialID, { ...found, counter: newCounter })
      return true
    },

    async createTwoFactor(twoFactor, codes) {
      if (twoFactors.get(twoFactor.userId)?.enabledAt) return null
      const stored = copyTwoFactor({ ...twoFactor, enabledAt: null, lastUsedStep: null })
      twoFactors.set(stored.userId, stored)
      recoveryCodes.set(stored.userId, new Set(codes))
      return copyTwoFactor(stored)
    },

    async getTwoFactor(userId) {
      const found = twoFactors.get(userId)
      return found ? copyTwoFactor(found) : null
    },

    async enableTwoFactor(userId, secret) {
      const found = twoFactors.get(userId)
      if (!found || found.enabledAt) return null
      if (secret !== undefined && found.secret !== secret) return null
      found.enabledAt = new Date()
      return copyTwoFactor(found)
    },

    async useTwoFactorStep(userId, step) {
      const found = twoFactors.get(userId)
      if (!found || (found.lastUsedStep !== null && found.lastUsedStep >= step)) return false
      found.lastUsedStep = step
      return true
    },

    async useRecoveryCode(userId, codeHash) {
      return recoveryCodes.get(userId)?.delete(codeHash) ?? false
    },

    async deleteTwoFactor(userId) {
      twoFactors.delete(userId)
      recoveryCodes.delete(userId)
    },
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
