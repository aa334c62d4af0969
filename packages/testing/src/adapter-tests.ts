/**
 * The adapter conformance suite: one set of tests that every database adapter
 * must pass, run against each of them (the memory adapter, SQLite, PostgreSQL,
 * or your own). Built on vitest: call it at the top level of a test file.
 *
 * Every test makes its own users, accounts and tokens with random ids, so the
 * suite needs no empty database and does not depend on test order.
 *
 * @example
 * ```ts
 * import { runAdapterTests } from "@tessera/testing/suites"
 * import { MyAdapter } from "../src/index.js"
 *
 * const adapter = MyAdapter(client)
 * runAdapterTests({
 *   adapter,
 *   db: {
 *     user: (id) => client.users.find(id),
 *     account: ({ provider, providerAccountId }) => client.accounts.find(provider, providerAccountId),
 *     session: (sessionToken) => client.sessions.find(sessionToken),
 *     verificationToken: ({ identifier, token }) => client.tokens.find(identifier, token),
 *     authenticator: (credentialID) => client.authenticators.find(credentialID),
 *   },
 * })
 * ```
 * @module
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterSessionRecord,
  AdapterTwoFactor,
  AdapterUser,
  VerificationToken,
} from "@tessera/core/adapters"
import { testAccount, testAuthenticator, testUser } from "./fixtures.js"

type Awaitable<T> = T | PromiseLike<T>

/**
 * Raw access to the adapter's storage, bypassing the adapter, so the suite can
 * check what was really written (and deleted). Each reader returns the stored
 * record (in the adapter's field names) or null when there is none.
 *
 * @see [docs/testing.md: testing your own adapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-adapter)
 */
export interface AdapterTestDb {
  /** Called once before the tests (open connections, run migrations). */
  connect?(): Awaitable<void>
  /** Called once after the tests. */
  disconnect?(): Awaitable<void>
  user(id: string): Awaitable<Partial<AdapterUser> | null | undefined>
  account(params: {
    provider: string
    providerAccountId: string
  }): Awaitable<Partial<AdapterAccount> | null | undefined>
  session(sessionToken: string): Awaitable<Partial<AdapterSession> | null | undefined>
  verificationToken(params: {
    identifier: string
    token: string
  }): Awaitable<Partial<VerificationToken> | null | undefined>
  authenticator(credentialID: string): Awaitable<Partial<AdapterAuthenticator> | null | undefined>
  /**
   * The user's stored second factor and the hashes of their recovery codes
   * (optional: without it the two-factor tests check through the adapter only).
   */
  twoFactor?(
    userId: string,
  ): Awaitable<(Partial<AdapterTwoFactor> & { recoveryCodes: string[] }) | null | undefined>
}

/**
 * Options of {@link runAdapterTests}: the adapter, raw readers of what it stored, tests to skip.
 *
 * @see [docs/testing.md: testing your own adapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-adapter)
 */
export interface AdapterTestOptions {
  adapter: Adapter
  db: AdapterTestDb
  /** Names of tests not to run (the second argument of each `test`), e.g. for methods you do not offer. */
  skipTests?: string[]
  /** The describe block's name. Default "adapter conformance". */
  name?: string
  /** How many first sign-ins of one identity race in the `createUserAndAccount` test. Default 20. */
  raceSize?: number
}

/**
 * Tessera's extensions to the Auth.js adapter interface, each optional: without them Tessera
 * falls back (`createUser` then `linkAccount`) or leaves the feature off (session management,
 * refresh leases, passkey counter swaps, second factors). Their tests are skipped, not failed,
 * for an adapter that lacks them.
 */
const optionalExtensions = new Set<keyof Adapter>([
  "createUserAndAccount",
  "createSessionRecord",
  "listSessionRecords",
  "getSessionRecord",
  "touchSessionRecord",
  "deleteSessionRecords",
  "listAccountsByUserId",
  "updateAccount",
  "leaseAccountRefresh",
  "swapAuthenticatorCounter",
  "createTwoFactor",
  "getTwoFactor",
  "enableTwoFactor",
  "useTwoFactorStep",
  "useRecoveryCode",
  "deleteTwoFactor",
])

/** A test reached an optional extension the adapter does not implement. */
class MissingExtension extends Error {}

const uid = () => crypto.randomUUID()

const inOneHour = () => new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000)

/**
 * Registers the conformance tests (vitest `describe`/`test`). Every method of
 * the `Adapter` interface is exercised, including Tessera's extensions
 * (`createUserAndAccount`, the session records, account tokens and refresh
 * leases, second factors). The tests of an optional extension the adapter does
 * not implement are reported as skipped; skip other tests by name (`skipTests`).
 *
 * @param options The adapter, raw readers that bypass it (`db`), and tests to skip.
 * @see [docs/testing.md: testing your own adapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-adapter)
 * @see [Auth.js: Adapter](https://authjs.dev/reference/core/adapters#adapter)
 */
export function runAdapterTests(options: AdapterTestOptions): void {
  const { adapter, db, skipTests = [], name = "adapter conformance", raceSize = 20 } = options
  const skipped = new Set(skipTests)
  // Skipped tests are not registered at all, so a suite with skips stays green. A test that
  // needs one of Tessera's optional extensions the adapter lacks is reported as skipped (with
  // the method's name), not failed: an adapter with only the Auth.js interface passes.
  const it = (title: string, fn: () => Promise<void>) => {
    if (skipped.has(title)) return
    test(title, async (context) => {
      try {
        await fn()
      } catch (error) {
        if (error instanceof MissingExtension) context.skip(error.message)
        throw error
      }
    })
  }

  /** The adapter's method, bound, or a clear failure (a skip, for an extension) when it is missing. */
  function method<M extends keyof Adapter>(key: M): NonNullable<Adapter[M]> {
    const fn = adapter[key]
    if (typeof fn !== "function" && optionalExtensions.has(key)) {
      throw new MissingExtension(`the adapter does not implement ${String(key)} (optional)`)
    }
    if (typeof fn !== "function") throw new Error(`The adapter does not implement ${String(key)}`)
    return (fn as (...args: unknown[]) => unknown).bind(adapter) as NonNullable<Adapter[M]>
  }

  async function createUser(overrides: Partial<AdapterUser> = {}): Promise<AdapterUser> {
    const user = testUser(overrides)
    const created = await method("createUser")(user)
    return { ...user, ...created }
  }

  async function linkAccount(
    userId: string,
    overrides: Partial<AdapterAccount> = {},
  ): Promise<AdapterAccount> {
    const account = testAccount(userId, overrides)
    await method("linkAccount")(account)
    return account
  }

  describe(name, () => {
    beforeAll(async () => {
      await db.connect?.()
    })
    afterAll(async () => {
      await db.disconnect?.()
    })

    describe("users", () => {
      it("createUser returns the user", async () => {
        const user = testUser({ emailVerified: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)) })
        const created = await method("createUser")(user)
        expect(created).toMatchObject(user)
        expect(created.emailVerified).toBeInstanceOf(Date)
        expect(await db.user(user.id)).toMatchObject({ id: user.id, email: user.email })
      })

      it("getUser returns the user, null for an unknown id", async () => {
        const user = await createUser()
        expect(await method("getUser")(user.id)).toMatchObject(user)
        expect(await method("getUser")(uid())).toBeNull()
      })

      it("getUserByEmail returns the user, null for an unknown e-mail", async () => {
        const user = await createUser()
        expect(await method("getUserByEmail")(user.email)).toMatchObject(user)
        expect(await method("getUserByEmail")(`nobody-${uid()}@example.com`)).toBeNull()
      })

      it("e-mail is unique", async () => {
        const user = await createUser()
        const twin = testUser({ email: user.email })
        await expect(Promise.resolve().then(() => method("createUser")(twin))).rejects.toBeDefined()
        expect(await db.user(twin.id)).toBeFalsy()
        const other = await createUser()
        await expect(
          Promise.resolve().then(() => method("updateUser")({ id: other.id, email: user.email })),
        ).rejects.toBeDefined()
        expect(await method("getUser")(other.id)).toMatchObject({ email: other.email })
      })

      it("users without an e-mail", async () => {
        // Providers may not share an address: several users then have none.
        const a = await createUser({ email: null as unknown as string })
        const b = await createUser({ email: null as unknown as string })
        expect((await method("getUser")(a.id))?.email ?? null).toBeNull()
        expect((await method("getUser")(b.id))?.email ?? null).toBeNull()
      })

      it("updateUser changes only the given fields", async () => {
        const user = await createUser()
        const verified = new Date(Date.UTC(2025, 5, 6, 7, 8, 9, 123))
        const updated = await method("updateUser")({
          id: user.id,
          name: "Ada King",
          emailVerified: verified,
        })
        expect(updated).toMatchObject({ ...user, name: "Ada King", emailVerified: verified })
        const read = await method("getUser")(user.id)
        expect(read).toMatchObject({ ...user, name: "Ada King", emailVerified: verified })
        expect(read?.emailVerified).toBeInstanceOf(Date)
      })

      it("deleteUser removes the user; unknown ids do not throw", async () => {
        const user = await createUser()
        await method("deleteUser")(user.id)
        expect(await method("getUser")(user.id)).toBeNull()
        expect(await method("getUserByEmail")(user.email)).toBeNull()
        expect(await db.user(user.id)).toBeFalsy()
        await method("deleteUser")(uid())
      })

      it("deleteUser cascades to accounts, sessions and authenticators", async () => {
        const user = await createUser()
        const keep = await createUser()
        const account = await linkAccount(user.id)
        const kept = await linkAccount(keep.id)
        const sessionToken = uid()
        await method("createSession")({ sessionToken, userId: user.id, expires: inOneHour() })
        const authenticator = testAuthenticator(user.id)
        await method("createAuthenticator")(authenticator)
        await method("deleteUser")(user.id)
        expect(await db.user(user.id)).toBeFalsy()
        expect(await db.account(account)).toBeFalsy()
        expect(await db.session(sessionToken)).toBeFalsy()
        expect(await db.authenticator(authenticator.credentialID)).toBeFalsy()
        expect(await method("getUserByAccount")(account)).toBeNull()
        // Another user's rows are untouched.
        expect(await db.user(keep.id)).toBeTruthy()
        expect(await db.account(kept)).toBeTruthy()
      })

      it("returned objects are copies", async () => {
        const input = testUser()
        const created = await method("createUser")(input)
        input.name = "changed input"
        created.name = "changed result"
        const read = await method("getUser")(input.id)
        expect(read?.name).toBe("Ada Lovelace")
        read!.name = "changed read"
        expect((await method("getUser")(input.id))?.name).toBe("Ada Lovelace")
      })
    })

    describe("accounts", () => {
      it("linkAccount stores the account with its tokens", async () => {
        const user = await createUser()
        const account = await linkAccount(user.id)
        const stored = await method("getAccount")(account.providerAccountId, account.provider)
        expect(stored).toMatchObject(account)
        expect(typeof stored?.expires_at).toBe("number")
        expect(await db.account(account)).toMatchObject({
          userId: user.id,
          provider: account.provider,
        })
      })

      it("linkAccount keeps a minimal account", async () => {
        const user = await createUser()
        const account: AdapterAccount = {
          userId: user.id,
          type: "email",
          provider: "email",
          providerAccountId: user.email,
        }
        await method("linkAccount")(account)
        expect(await method("getAccount")(account.providerAccountId, "email")).toMatchObject(
          account,
        )
      })

      it("getUserByAccount returns the linked user, null when unknown", async () => {
        const user = await createUser()
        const account = await linkAccount(user.id)
        const { provider, providerAccountId } = account
        expect(await method("getUserByAccount")({ provider, providerAccountId })).toMatchObject(
          user,
        )
        expect(await method("getUserByAccount")({ provider, providerAccountId: uid() })).toBeNull()
        expect(
          await method("getUserByAccount")({ provider: "other", providerAccountId }),
        ).toBeNull()
      })

      it("getAccount returns the account, null when unknown", async () => {
        const user = await createUser()
        const account = await linkAccount(user.id, { provider: "google", type: "oidc" })
        expect(await method("getAccount")(account.providerAccountId, "google")).toMatchObject(
          account,
        )
        expect(await method("getAccount")(account.providerAccountId, "github")).toBeNull()
        expect(await method("getAccount")(uid(), "google")).toBeNull()
      })

      it("(provider, providerAccountId) is unique", async () => {
        const user = await createUser()
        const other = await createUser()
        const account = await linkAccount(user.id)
        const twin = testAccount(other.id, {
          provider: account.provider,
          providerAccountId: account.providerAccountId,
        })
        await expect(
          Promise.resolve().then(() => method("linkAccount")(twin)),
        ).rejects.toBeDefined()
        expect(await method("getUserByAccount")(account)).toMatchObject({ id: user.id })
        // The same id at another provider is another account.
        await linkAccount(other.id, {
          provider: "gitlab",
          providerAccountId: account.providerAccountId,
        })
        expect(
          await method("getUserByAccount")({
            provider: "gitlab",
            providerAccountId: account.providerAccountId,
          }),
        ).toMatchObject({ id: other.id })
      })

      it("unlinkAccount removes the account; unknown accounts do not throw", async () => {
        const user = await createUser()
        const account = await linkAccount(user.id)
        const { provider, providerAccountId } = account
        await method("unlinkAccount")({ provider, providerAccountId })
        expect(await method("getAccount")(providerAccountId, provider)).toBeNull()
        expect(await method("getUserByAccount")({ provider, providerAccountId })).toBeNull()
        expect(await db.account({ provider, providerAccountId })).toBeFalsy()
        expect(await db.user(user.id)).toBeTruthy()
        await method("unlinkAccount")({ provider, providerAccountId: uid() })
      })
    })

    describe("sessions", () => {
      it("createSession and getSessionAndUser", async () => {
        const user = await createUser()
        const session = { sessionToken: uid(), userId: user.id, expires: inOneHour() }
        expect(await method("createSession")(session)).toMatchObject(session)
        const found = await method("getSessionAndUser")(session.sessionToken)
        expect(found?.session).toMatchObject(session)
        expect(found?.session.expires).toBeInstanceOf(Date)
        expect(found?.user).toMatchObject(user)
        expect(await db.session(session.sessionToken)).toMatchObject({ userId: user.id })
      })

      it("getSessionAndUser returns null for an unknown token", async () => {
        expect(await method("getSessionAndUser")(uid())).toBeNull()
      })

      it("getSessionAndUser returns null for an expired session and deletes it", async () => {
        const user = await createUser()
        const sessionToken = uid()
        await method("createSession")({
          sessionToken,
          userId: user.id,
          expires: new Date(Date.now() - 1000),
        })
        expect(await method("getSessionAndUser")(sessionToken)).toBeNull()
        expect(await db.session(sessionToken)).toBeFalsy()
        expect(await db.user(user.id)).toBeTruthy()
      })

      it("updateSession changes expires; null for an unknown token", async () => {
        const user = await createUser()
        const sessionToken = uid()
        await method("createSession")({ sessionToken, userId: user.id, expires: inOneHour() })
        const expires = new Date(Date.now() + 86_400_000)
        const updated = await method("updateSession")({ sessionToken, expires })
        expect(updated).toMatchObject({ sessionToken, userId: user.id, expires })
        expect((await method("getSessionAndUser")(sessionToken))?.session.expires).toEqual(expires)
        expect(await method("updateSession")({ sessionToken: uid(), expires })).toBeFalsy()
      })

      it("deleteSession removes the session; unknown tokens do not throw", async () => {
        const user = await createUser()
        const sessionToken = uid()
        await method("createSession")({ sessionToken, userId: user.id, expires: inOneHour() })
        await method("deleteSession")(sessionToken)
        expect(await method("getSessionAndUser")(sessionToken)).toBeNull()
        expect(await db.session(sessionToken)).toBeFalsy()
        expect(await db.user(user.id)).toBeTruthy()
        expect(await method("deleteSession")(uid())).toBeFalsy()
      })

      it("session tokens are unique", async () => {
        const user = await createUser()
        const sessionToken = uid()
        await method("createSession")({ sessionToken, userId: user.id, expires: inOneHour() })
        await expect(
          Promise.resolve().then(() =>
            method("createSession")({ sessionToken, userId: user.id, expires: inOneHour() }),
          ),
        ).rejects.toBeDefined()
      })
    })

    describe("session records", () => {
      const record = (userId: string, overrides: Partial<AdapterSessionRecord> = {}) => {
        const now = new Date(Math.floor(Date.now() / 1000) * 1000)
        return {
          id: uid().replaceAll("-", ""),
          userId,
          createdAt: now,
          lastSeenAt: now,
          expires: inOneHour(),
          userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
          ipPrefix: "203.0.113.0/24",
          provider: "local",
          providerAccountId: uid(),
          providerSessionId: uid(),
          ...overrides,
        } satisfies AdapterSessionRecord
      }

      it("createSession keeps the record fields; getSessionAndUser and listSessionRecords return them", async () => {
        const user = await createUser()
        const fields = record(user.id)
        const sessionToken = uid()
        await method("createSession")({ ...fields, sessionToken })
        const found = await method("getSessionAndUser")(sessionToken)
        expect(found?.session).toMatchObject({ ...fields, sessionToken })
        expect(found?.session.createdAt).toBeInstanceOf(Date)
        expect(await method("listSessionRecords")(user.id)).toEqual([fields])
      })

      it("createSessionRecord keeps the record of a user the adapter does not hold (a credentials user)", async () => {
        const userId = uid()
        const kept = record(userId)
        expect(await method("createSessionRecord")(kept)).toEqual(kept)
        expect(await method("listSessionRecords")(userId)).toEqual([kept])
        expect(await method("deleteSessionRecords")({ id: kept.id, userId })).toEqual([kept])
        expect(await method("listSessionRecords")(userId)).toEqual([])
      })

      it("createSessionRecord, and listSessionRecords lists both kinds, live ones only", async () => {
        const user = await createUser()
        const jwt = record(user.id)
        expect(await method("createSessionRecord")(jwt)).toEqual(jwt)
        const database = record(user.id, { provider: null, providerAccountId: null })
        await method("createSession")({ ...database, sessionToken: uid() })
        await method("createSessionRecord")(
          record(user.id, { expires: new Date(Date.now() - 1000) }),
        )
        await method("createSessionRecord")(record((await createUser()).id))
        const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id)
        expect((await method("listSessionRecords")(user.id)).sort(byId)).toEqual(
          [jwt, database].sort(byId),
        )
        expect(await method("listSessionRecords")(uid())).toEqual([])
      })

      it("session ids are unique", async () => {
        const user = await createUser()
        const first = record(user.id)
        await method("createSessionRecord")(first)
        await expect(
          Promise.resolve().then(() =>
            method("createSessionRecord")(record(user.id, { id: first.id })),
          ),
        ).rejects.toBeDefined()
      })

      it("touchSessionRecord moves lastSeenAt (and expires); null for unknown or expired", async () => {
        const user = await createUser()
        const live = record(user.id)
        await method("createSessionRecord")(live)
        const lastSeenAt = new Date(live.lastSeenAt.valueOf() + 90_000)
        const expires = new Date(live.expires.valueOf() + 86_400_000)
        expect(await method("touchSessionRecord")(live.id, { lastSeenAt })).toEqual({
          ...live,
          lastSeenAt,
        })
        expect(await method("touchSessionRecord")(live.id, { lastSeenAt, expires })).toEqual({
          ...live,
          lastSeenAt,
          expires,
        })
        expect(await method("listSessionRecords")(user.id)).toEqual([
          { ...live, lastSeenAt, expires },
        ])
        const dead = record(user.id, { expires: new Date(Date.now() - 1000) })
        await method("createSessionRecord")(dead)
        expect(await method("touchSessionRecord")(dead.id, { lastSeenAt })).toBeNull()
        expect(await method("touchSessionRecord")(uid(), { lastSeenAt })).toBeNull()
      })

      it("getSessionRecord finds a live record of any kind by id alone; null for unknown or expired", async () => {
        const user = await createUser()
        const jwt = record(user.id)
        await method("createSessionRecord")(jwt)
        const database = record(user.id, { provider: null, providerAccountId: null })
        await method("createSession")({ ...database, sessionToken: uid() })
        const dead = record(user.id, { expires: new Date(Date.now() - 1000) })
        await method("createSessionRecord")(dead)
        expect(await method("getSessionRecord")(jwt.id)).toEqual(jwt)
        expect(await method("getSessionRecord")(database.id)).toEqual(database)
        expect(await method("getSessionRecord")(dead.id)).toBeNull()
        expect(await method("getSessionRecord")(uid())).toBeNull()
      })

      it("updateSession moves a database session's lastSeenAt", async () => {
        const user = await createUser()
        const fields = record(user.id)
        const sessionToken = uid()
        await method("createSession")({ ...fields, sessionToken })
        const lastSeenAt = new Date(fields.lastSeenAt.valueOf() + 120_000)
        await method("updateSession")({ sessionToken, lastSeenAt })
        expect((await method("getSessionAndUser")(sessionToken))?.session.lastSeenAt).toEqual(
          lastSeenAt,
        )
      })

      it("deleteSessionRecords by id, by user (except one), by provider session and by provider account", async () => {
        const user = await createUser()
        const other = await createUser()
        const [a, b, c] = [record(user.id), record(user.id), record(user.id)]
        const sessionToken = uid()
        await method("createSessionRecord")(a)
        await method("createSessionRecord")(b)
        await method("createSession")({ ...c, sessionToken })
        const theirs = record(other.id, {
          providerAccountId: a.providerAccountId,
          providerSessionId: a.providerSessionId,
          provider: "elsewhere",
        })
        await method("createSessionRecord")(theirs)

        // Another user's id with this user's session: nothing.
        expect(await method("deleteSessionRecords")({ id: a.id, userId: other.id })).toEqual([])
        expect(await method("deleteSessionRecords")({ id: a.id, userId: user.id })).toEqual([a])
        expect(await method("deleteSessionRecords")({ id: a.id })).toEqual([])
        // By the provider's sid, at that provider only.
        expect(
          await method("deleteSessionRecords")({
            provider: "local",
            providerSessionId: b.providerSessionId!,
          }),
        ).toEqual([b])
        await method("createSessionRecord")(b)
        expect(
          await method("deleteSessionRecords")({
            provider: "local",
            providerAccountId: b.providerAccountId!,
          }),
        ).toEqual([b])
        await method("createSessionRecord")(b)
        // Every other session of the user: the database session's row goes too.
        expect(await method("deleteSessionRecords")({ userId: user.id, exceptId: b.id })).toEqual([
          { ...c },
        ])
        expect(await method("getSessionAndUser")(sessionToken)).toBeNull()
        expect(await method("deleteSessionRecords")({ userId: user.id })).toEqual([b])
        expect(await method("listSessionRecords")(user.id)).toEqual([])
        expect(await method("listSessionRecords")(other.id)).toEqual([theirs])
      })

      it("deleteUser deletes the user's session records", async () => {
        const user = await createUser()
        await method("createSessionRecord")(record(user.id))
        await method("deleteUser")(user.id)
        expect(await method("listSessionRecords")(user.id)).toEqual([])
      })
    })

    describe("account tokens", () => {
      it("listAccountsByUserId", async () => {
        const user = await createUser()
        const first = await linkAccount(user.id)
        const second = await linkAccount(user.id, { provider: "gitlab" })
        await linkAccount((await createUser()).id)
        const list = await method("listAccountsByUserId")(user.id)
        const byProvider = (a: AdapterAccount, b: AdapterAccount) =>
          a.provider.localeCompare(b.provider)
        expect([...list].sort(byProvider)).toMatchObject([first, second].sort(byProvider))
        expect(await method("listAccountsByUserId")(uid())).toEqual([])
      })

      it("updateAccount stores new tokens, clears the null ones, keeps the rest", async () => {
        const user = await createUser()
        const account = await linkAccount(user.id)
        const { provider, providerAccountId } = account
        const updated = await method("updateAccount")({
          provider,
          providerAccountId,
          access_token: "new-access",
          expires_at: 2_000_000_000,
          refresh_token: null,
        })
        expect(updated).toMatchObject({ access_token: "new-access", expires_at: 2_000_000_000 })
        const stored = await method("getAccount")(providerAccountId, provider)
        expect(stored).toMatchObject({
          access_token: "new-access",
          expires_at: 2_000_000_000,
          scope: account.scope,
          userId: user.id,
        })
        expect(stored?.refresh_token ?? null).toBeNull()
        expect(
          await method("updateAccount")({ provider, providerAccountId: uid(), access_token: "x" }),
        ).toBeFalsy()
      })

      it("updateAccount with expected: only while the stored refresh_token is still that one", async () => {
        const user = await createUser()
        const { provider, providerAccountId } = await linkAccount(user.id, {
          refresh_token: "spent-by-a-refresh",
        })
        // A sign-in stores a new grant's tokens while a refresh is in flight.
        await method("updateAccount")({
          provider,
          providerAccountId,
          access_token: "from-the-sign-in",
          refresh_token: "from-the-sign-in",
        })
        // The refresh's clear (or its result) must not land over them.
        const stale = await method("updateAccount")(
          { provider, providerAccountId, access_token: null, refresh_token: null },
          undefined,
          { refresh_token: "spent-by-a-refresh" },
        )
        expect(stale).toBeFalsy()
        expect(await method("getAccount")(providerAccountId, provider)).toMatchObject({
          access_token: "from-the-sign-in",
          refresh_token: "from-the-sign-in",
        })
        const current = await method("updateAccount")(
          { provider, providerAccountId, access_token: "refreshed" },
          undefined,
          { refresh_token: "from-the-sign-in" },
        )
        expect(current).toMatchObject({ access_token: "refreshed" })
      })

      it("updateAccount with expected.access_token: not over a sign-in that kept the refresh token", async () => {
        const user = await createUser()
        const { provider, providerAccountId } = await linkAccount(user.id, {
          access_token: "before-the-refresh",
          refresh_token: "not-rotated",
        })
        // A sign-in whose provider sent no new refresh token: only the access token changes.
        await method("updateAccount")({
          provider,
          providerAccountId,
          access_token: "from-the-sign-in",
        })
        const stale = await method("updateAccount")(
          { provider, providerAccountId, access_token: "refreshed" },
          undefined,
          { refresh_token: "not-rotated", access_token: "before-the-refresh" },
        )
        expect(stale).toBeFalsy()
        expect(await method("getAccount")(providerAccountId, provider)).toMatchObject({
          access_token: "from-the-sign-in",
          refresh_token: "not-rotated",
        })
        const current = await method("updateAccount")(
          { provider, providerAccountId, access_token: "refreshed" },
          undefined,
          { refresh_token: "not-rotated", access_token: "from-the-sign-in" },
        )
        expect(current).toMatchObject({ access_token: "refreshed" })
        // `null` expects no access token stored.
        await method("updateAccount")({ provider, providerAccountId, access_token: null })
        const cleared = await method("updateAccount")(
          { provider, providerAccountId, access_token: "after-a-clear" },
          undefined,
          { refresh_token: "not-rotated", access_token: null },
        )
        expect(cleared).toMatchObject({ access_token: "after-a-clear" })
      })

      it("leaseAccountRefresh: one lease at a time, released by updateAccount with its id", async () => {
        const user = await createUser()
        const { provider, providerAccountId } = await linkAccount(user.id)
        const until = new Date(Date.now() + 30_000)
        const leases = await Promise.all(
          Array.from({ length: 10 }, async () =>
            method("leaseAccountRefresh")({ provider, providerAccountId, leaseId: uid(), until }),
          ),
        )
        expect(leases.filter(Boolean)).toHaveLength(1)
        expect(leases.find(Boolean)).toMatchObject({ provider, providerAccountId })
        const wrong = await method("updateAccount")(
          { provider, providerAccountId, access_token: "not mine" },
          uid(),
        )
        expect(wrong).toBeFalsy()
        expect((await method("getAccount")(providerAccountId, provider))?.access_token).not.toBe(
          "not mine",
        )
        const leaseId = uid()
        // Still held: a new lease is refused.
        expect(
          await method("leaseAccountRefresh")({ provider, providerAccountId, leaseId, until }),
        ).toBeFalsy()
        expect(
          await method("leaseAccountRefresh")({
            provider,
            providerAccountId: uid(),
            leaseId,
            until,
          }),
        ).toBeFalsy()
      })

      it("leaseAccountRefresh: an expired lease can be taken; updateAccount with the lease releases it", async () => {
        const user = await createUser()
        const { provider, providerAccountId } = await linkAccount(user.id)
        const past = new Date(Date.now() - 1000)
        expect(
          await method("leaseAccountRefresh")({
            provider,
            providerAccountId,
            leaseId: uid(),
            until: past,
          }),
        ).toBeTruthy()
        const leaseId = uid()
        const until = new Date(Date.now() + 30_000)
        expect(
          await method("leaseAccountRefresh")({ provider, providerAccountId, leaseId, until }),
        ).toBeTruthy()
        const stored = await method("updateAccount")(
          {
            provider,
            providerAccountId,
            access_token: "rotated",
            refresh_token: "rotated-refresh",
          },
          leaseId,
        )
        expect(stored).toMatchObject({ access_token: "rotated", refresh_token: "rotated-refresh" })
        // Released: the next refresh can lease it at once.
        expect(
          await method("leaseAccountRefresh")({
            provider,
            providerAccountId,
            leaseId: uid(),
            until,
          }),
        ).toBeTruthy()
      })
    })

    describe("verification tokens", () => {
      const newToken = (): VerificationToken => ({
        identifier: `ada-${uid()}@example.com`,
        token: uid().replaceAll("-", ""),
        expires: inOneHour(),
      })

      it("createVerificationToken and useVerificationToken", async () => {
        const token = newToken()
        const created = await method("createVerificationToken")(token)
        if (created) expect(created).toMatchObject(token)
        expect(await db.verificationToken(token)).toMatchObject({ identifier: token.identifier })
        const used = await method("useVerificationToken")({
          identifier: token.identifier,
          token: token.token,
        })
        expect(used).toMatchObject(token)
        expect(used?.expires).toBeInstanceOf(Date)
        expect(await db.verificationToken(token)).toBeFalsy()
      })

      // Tessera records used passkey challenges, finished two-factor sign-ins and back-channel
      // logout `jti`s as verification tokens: a second insert failing is what makes them single use.
      it("createVerificationToken refuses an (identifier, token) that exists, even when raced", async () => {
        const token = newToken()
        const results = await Promise.allSettled(
          Array.from({ length: 5 }, async () => method("createVerificationToken")({ ...token })),
        )
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
        await expect(
          Promise.resolve().then(() => method("createVerificationToken")({ ...token })),
        ).rejects.toBeDefined()
      })

      it("useVerificationToken is single use", async () => {
        const token = newToken()
        await method("createVerificationToken")(token)
        const params = { identifier: token.identifier, token: token.token }
        expect(await method("useVerificationToken")(params)).toMatchObject(token)
        expect(await method("useVerificationToken")(params)).toBeNull()
      })

      it("useVerificationToken returns null for an unknown token", async () => {
        expect(
          await method("useVerificationToken")({ identifier: "nobody@example.com", token: uid() }),
        ).toBeNull()
      })

      it("useVerificationToken needs the right identifier", async () => {
        const token = newToken()
        await method("createVerificationToken")(token)
        expect(
          await method("useVerificationToken")({
            identifier: "mallory@example.com",
            token: token.token,
          }),
        ).toBeNull()
        // The failed attempt did not consume it.
        expect(await db.verificationToken(token)).toBeTruthy()
        expect(
          await method("useVerificationToken")({
            identifier: token.identifier,
            token: token.token,
          }),
        ).toMatchObject(token)
      })

      it("useVerificationToken under concurrency: exactly one caller gets the token", async () => {
        const token = newToken()
        await method("createVerificationToken")(token)
        const params = { identifier: token.identifier, token: token.token }
        const results = await Promise.all(
          Array.from({ length: 10 }, async () => method("useVerificationToken")(params)),
        )
        expect(results.filter(Boolean)).toHaveLength(1)
      })
    })

    describe("authenticators", () => {
      it("createAuthenticator and getAuthenticator", async () => {
        const user = await createUser()
        const authenticator = testAuthenticator(user.id)
        expect(await method("createAuthenticator")(authenticator)).toMatchObject(authenticator)
        const found = await method("getAuthenticator")(authenticator.credentialID)
        expect(found).toMatchObject(authenticator)
        expect(found?.credentialBackedUp).toBe(true)
        expect(await db.authenticator(authenticator.credentialID)).toMatchObject({
          userId: user.id,
        })
      })

      it("getAuthenticator returns null for an unknown credential id", async () => {
        expect(await method("getAuthenticator")(uid())).toBeNull()
      })

      it("listAuthenticatorsByUserId", async () => {
        const user = await createUser()
        const other = await createUser()
        const a = testAuthenticator(user.id, { transports: null, credentialBackedUp: false })
        const b = testAuthenticator(user.id, { counter: 7 })
        await method("createAuthenticator")(a)
        await method("createAuthenticator")(b)
        await method("createAuthenticator")(testAuthenticator(other.id))
        const list = await method("listAuthenticatorsByUserId")(user.id)
        const byId = (x: { credentialID: string }, y: { credentialID: string }) =>
          x.credentialID.localeCompare(y.credentialID)
        expect([...list].sort(byId)).toMatchObject(
          [a, b].sort(byId).map((x) => ({ ...x, transports: x.transports ?? null })),
        )
        expect(await method("listAuthenticatorsByUserId")(uid())).toEqual([])
      })

      it("updateAuthenticatorCounter", async () => {
        const user = await createUser()
        const authenticator = testAuthenticator(user.id)
        await method("createAuthenticator")(authenticator)
        const updated = await method("updateAuthenticatorCounter")(
          authenticator.credentialID,
          4_000_000_000,
        )
        expect(updated).toMatchObject({ ...authenticator, counter: 4_000_000_000 })
        expect((await method("getAuthenticator")(authenticator.credentialID))?.counter).toBe(
          4_000_000_000,
        )
      })

      it("swapAuthenticatorCounter: sets the counter only while it is the expected one", async () => {
        const user = await createUser()
        const authenticator = testAuthenticator(user.id, { counter: 7 })
        await method("createAuthenticator")(authenticator)
        const swap = method("swapAuthenticatorCounter")
        const stored = async () =>
          (await method("getAuthenticator")(authenticator.credentialID))?.counter
        // A wrong expected value changes nothing, whether above or below the stored one.
        expect(await swap(authenticator.credentialID, 6, 9)).toBe(false)
        expect(await swap(authenticator.credentialID, 8, 9)).toBe(false)
        expect(await stored()).toBe(7)
        expect(await swap(authenticator.credentialID, 7, 4_000_000_000)).toBe(true)
        expect(await stored()).toBe(4_000_000_000)
        expect(await db.authenticator(authenticator.credentialID)).toMatchObject({
          userId: user.id,
        })
        // The value it moved from is gone: the same swap again changes nothing.
        expect(await swap(authenticator.credentialID, 7, 12)).toBe(false)
        expect(await stored()).toBe(4_000_000_000)
        expect(await swap(uid(), 0, 1)).toBe(false)
      })

      it("swapAuthenticatorCounter: concurrent swaps from one value: exactly one wins", async () => {
        const user = await createUser()
        const authenticator = testAuthenticator(user.id, { counter: 3 })
        await method("createAuthenticator")(authenticator)
        const results = await Promise.all(
          Array.from({ length: raceSize }, async (_, i) =>
            method("swapAuthenticatorCounter")(authenticator.credentialID, 3, 10 + i),
          ),
        )
        expect(results.filter(Boolean)).toHaveLength(1)
        expect((await method("getAuthenticator")(authenticator.credentialID))?.counter).toBe(
          10 + results.indexOf(true),
        )
      })

      it("credential id is unique", async () => {
        const user = await createUser()
        const authenticator = testAuthenticator(user.id)
        await method("createAuthenticator")(authenticator)
        await expect(
          Promise.resolve().then(() =>
            method("createAuthenticator")({ ...authenticator, counter: 9 }),
          ),
        ).rejects.toBeDefined()
        expect((await method("getAuthenticator")(authenticator.credentialID))?.counter).toBe(0)
      })
    })

    describe("two-factor (optional methods)", () => {
      const secret = () => `v1.${uid()}.encrypted-by-tessera`
      const codes = () => Array.from({ length: 10 }, () => uid().replaceAll("-", ""))
      async function setUp(userId: string, recoveryCodes = codes()) {
        const twoFactor = { userId, secret: secret(), enabledAt: null, lastUsedStep: null }
        const created = await method("createTwoFactor")(twoFactor, recoveryCodes)
        return { twoFactor, created, recoveryCodes }
      }

      it("two-factor: createTwoFactor stores an unconfirmed factor with its recovery codes", async () => {
        const user = await createUser()
        const { twoFactor, created, recoveryCodes } = await setUp(user.id)
        expect(created).toMatchObject(twoFactor)
        expect(await method("getTwoFactor")(user.id)).toEqual(twoFactor)
        expect(await method("getTwoFactor")(uid())).toBeNull()
        const stored = await db.twoFactor?.(user.id)
        if (stored) {
          expect(stored).toMatchObject({ secret: twoFactor.secret })
          expect([...stored.recoveryCodes].sort()).toEqual([...recoveryCodes].sort())
        }
      })

      it("two-factor: a new setup replaces an unconfirmed one and its recovery codes", async () => {
        const user = await createUser()
        const first = await setUp(user.id)
        const second = await setUp(user.id)
        expect((await method("getTwoFactor")(user.id))?.secret).toBe(second.twoFactor.secret)
        expect(await method("useRecoveryCode")(user.id, first.recoveryCodes[0]!)).toBe(false)
        expect(await method("useRecoveryCode")(user.id, second.recoveryCodes[0]!)).toBe(true)
      })

      it("two-factor: enableTwoFactor with a secret confirms only the factor with that secret", async () => {
        const user = await createUser()
        const first = await setUp(user.id)
        const second = await setUp(user.id)
        // The code checked was for the first key; a second setup replaced it meanwhile.
        expect(await method("enableTwoFactor")(user.id, first.twoFactor.secret)).toBeNull()
        expect((await method("getTwoFactor")(user.id))?.enabledAt).toBeNull()
        const enabled = await method("enableTwoFactor")(user.id, second.twoFactor.secret)
        expect(enabled).toMatchObject({ secret: second.twoFactor.secret })
        expect(enabled?.enabledAt).toBeInstanceOf(Date)
      })

      it("two-factor: enableTwoFactor confirms once; a confirmed factor is never replaced", async () => {
        const user = await createUser()
        const { twoFactor, recoveryCodes } = await setUp(user.id)
        const before = Date.now()
        const enabled = await method("enableTwoFactor")(user.id)
        expect(enabled?.enabledAt).toBeInstanceOf(Date)
        expect(enabled!.enabledAt!.valueOf()).toBeGreaterThanOrEqual(before - 1000)
        expect((await method("getTwoFactor")(user.id))?.enabledAt).toBeInstanceOf(Date)
        expect(await method("enableTwoFactor")(user.id)).toBeNull()
        expect(await method("enableTwoFactor")(uid())).toBeNull()
        const replaced = await setUp(user.id)
        expect(replaced.created).toBeNull()
        expect((await method("getTwoFactor")(user.id))?.secret).toBe(twoFactor.secret)
        expect(await method("useRecoveryCode")(user.id, replaced.recoveryCodes[0]!)).toBe(false)
        expect(await method("useRecoveryCode")(user.id, recoveryCodes[0]!)).toBe(true)
      })

      it("two-factor: useTwoFactorStep accepts each step once, and only later ones", async () => {
        const user = await createUser()
        await setUp(user.id)
        const use = method("useTwoFactorStep")
        expect(await use(user.id, 58_000_000)).toBe(true)
        expect(await use(user.id, 58_000_000)).toBe(false)
        expect(await use(user.id, 57_999_999)).toBe(false)
        expect(await use(user.id, 58_000_001)).toBe(true)
        expect((await method("getTwoFactor")(user.id))?.lastUsedStep).toBe(58_000_001)
        expect(await use(uid(), 58_000_002)).toBe(false)
      })

      it("two-factor: concurrent uses of one step: exactly one wins", async () => {
        const user = await createUser()
        await setUp(user.id)
        const results = await Promise.all(
          Array.from({ length: raceSize }, async () =>
            method("useTwoFactorStep")(user.id, 60_000_000),
          ),
        )
        expect(results.filter(Boolean)).toHaveLength(1)
      })

      it("two-factor: a recovery code works once, for its own user only", async () => {
        const user = await createUser()
        const other = await createUser()
        const { recoveryCodes } = await setUp(user.id)
        await setUp(other.id)
        expect(await method("useRecoveryCode")(other.id, recoveryCodes[1]!)).toBe(false)
        const results = await Promise.all(
          Array.from({ length: raceSize }, async () =>
            method("useRecoveryCode")(user.id, recoveryCodes[1]!),
          ),
        )
        expect(results.filter(Boolean)).toHaveLength(1)
        expect(await method("useRecoveryCode")(user.id, recoveryCodes[2]!)).toBe(true)
        const stored = await db.twoFactor?.(user.id)
        if (stored) expect(stored.recoveryCodes).toHaveLength(8)
      })

      it("two-factor: deleteTwoFactor and deleteUser remove the factor and its codes", async () => {
        const user = await createUser()
        const { recoveryCodes } = await setUp(user.id)
        await method("enableTwoFactor")(user.id)
        await method("deleteTwoFactor")(user.id)
        expect(await method("getTwoFactor")(user.id)).toBeNull()
        expect(await method("useRecoveryCode")(user.id, recoveryCodes[0]!)).toBe(false)
        expect(await db.twoFactor?.(user.id)).toBeFalsy()
        await method("deleteTwoFactor")(uid())

        const gone = await createUser()
        await setUp(gone.id)
        await method("deleteUser")(gone.id)
        expect(await method("getTwoFactor")(gone.id)).toBeNull()
        expect(await db.twoFactor?.(gone.id)).toBeFalsy()
      })
    })

    describe("createUserAndAccount", () => {
      it("createUserAndAccount creates both", async () => {
        const user = testUser()
        const account = testAccount(user.id)
        const result = await method("createUserAndAccount")(user, account)
        expect(result.created).toBe(true)
        expect(result.user).toMatchObject(user)
        expect(result.account).toMatchObject(account)
        expect(await method("getUserByAccount")(account)).toMatchObject(user)
        expect(await db.user(user.id)).toBeTruthy()
        expect(await db.account(account)).toMatchObject({ userId: user.id })
      })

      it("createUserAndAccount returns the existing user for a known account", async () => {
        const first = testUser()
        const account = testAccount(first.id)
        await method("createUserAndAccount")(first, account)
        const second = testUser({ email: first.email })
        const result = await method("createUserAndAccount")(second, {
          ...account,
          userId: second.id,
        })
        expect(result.created).toBe(false)
        expect(result.user).toMatchObject({ id: first.id })
        expect(result.account).toMatchObject({
          userId: first.id,
          providerAccountId: account.providerAccountId,
        })
        expect(await db.user(second.id)).toBeFalsy()
      })

      it("createUserAndAccount with another user's e-mail fails and stores nothing", async () => {
        // Not a race of one identity but a different account with a taken address:
        // handing out the existing user would sign a stranger in as them.
        const owner = await createUser()
        const user = testUser({ email: owner.email })
        const account = testAccount(user.id)
        await expect(method("createUserAndAccount")(user, account)).rejects.toBeDefined()
        expect(await db.user(user.id)).toBeFalsy()
        expect(await db.account(account)).toBeFalsy()
      })

      it("createUserAndAccount race: one user and one account", async () => {
        const email = `race-${uid()}@example.com`
        const providerAccountId = uid()
        const attempts = Array.from({ length: raceSize }, () => {
          const user = testUser({ email })
          return { user, account: testAccount(user.id, { providerAccountId }) }
        })
        const results = await Promise.all(
          attempts.map(({ user, account }) => method("createUserAndAccount")(user, account)),
        )
        expect(results.filter((r) => r.created)).toHaveLength(1)
        const winner = results.find((r) => r.created)!.user
        for (const result of results) expect(result.user.id).toBe(winner.id)
        const stored = await Promise.all(attempts.map(async ({ user }) => db.user(user.id)))
        expect(stored.filter(Boolean)).toHaveLength(1)
        expect(await db.account({ provider: "github", providerAccountId })).toMatchObject({
          userId: winner.id,
        })
        expect(await method("getUserByEmail")(email)).toMatchObject({ id: winner.id })
      })
    })
  })
}
