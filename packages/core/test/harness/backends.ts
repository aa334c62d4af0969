/**
 * The databases the e-mail, database-session, linking and fault tests run on:
 * the memory adapter, SQLite in a real temp file, and PostgreSQL (a private
 * server from `startPostgres`, one fresh schema per backend). Each backend
 * reads its tables directly, bypassing the adapter, so tests check what was
 * really stored.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import type {
  Adapter,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "@tessera/core/adapters"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { MemoryAdapter, startPostgres, type PostgresServer } from "@tessera/testing"

export interface StoredAccount {
  userId: string
  provider: string
  providerAccountId: string
  type: string
}

export interface Backend {
  name: string
  adapter: Adapter
  users(): Promise<AdapterUser[]>
  accounts(): Promise<StoredAccount[]>
  sessions(): Promise<AdapterSession[]>
  tokens(): Promise<VerificationToken[]>
  setSessionExpires(sessionToken: string, expires: Date): Promise<void>
  setTokenExpires(identifier: string, expires: Date): Promise<void>
  close(): Promise<void>
}

export function memoryBackend(): Backend {
  const adapter = MemoryAdapter()
  const { store } = adapter
  return {
    name: "memory",
    adapter,
    users: async () => [...store.users.values()],
    accounts: async () =>
      [...store.accounts.values()].map((a) => ({
        userId: a.userId,
        provider: a.provider,
        providerAccountId: a.providerAccountId,
        type: a.type,
      })),
    sessions: async () => [...store.sessions.values()],
    tokens: async () => [...store.verificationTokens.values()],
    async setSessionExpires(sessionToken, expires) {
      store.sessions.get(sessionToken)!.expires = expires
    },
    async setTokenExpires(identifier, expires) {
      for (const token of store.verificationTokens.values())
        if (token.identifier === identifier) token.expires = expires
    },
    close: async () => {},
  }
}

const toDate = (value: unknown) => (value instanceof Date ? value : new Date(Number(value)))

function sqlBackend(
  name: string,
  adapter: SqlAdapterInstance,
  cleanup: () => Promise<void>,
): Backend {
  const { db } = adapter
  const stamp = (d: Date) => (adapter.dialect === "sqlite" ? d.valueOf() : d)
  return {
    name,
    adapter,
    async users() {
      const rows = await db.selectFrom("users").selectAll().execute()
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        email: r.email as string,
        image: r.image,
        emailVerified: r.email_verified == null ? null : toDate(r.email_verified),
      }))
    },
    async accounts() {
      const rows = await db.selectFrom("accounts").selectAll().execute()
      return rows.map((r) => ({
        userId: r.user_id,
        provider: r.provider,
        providerAccountId: r.provider_account_id,
        type: r.type,
      }))
    },
    async sessions() {
      const rows = await db.selectFrom("sessions").selectAll().execute()
      return rows.map((r) => ({
        sessionToken: r.session_token,
        userId: r.user_id,
        expires: toDate(r.expires),
        ...(r.id == null
          ? {}
          : {
              id: r.id,
              createdAt: toDate(r.created_at),
              lastSeenAt: toDate(r.last_seen_at),
              userAgent: r.user_agent,
              ipPrefix: r.ip_prefix,
              provider: r.provider,
              providerAccountId: r.provider_account_id,
              providerSessionId: r.provider_session_id,
            }),
      }))
    },
    async tokens() {
      const rows = await db.selectFrom("verification_tokens").selectAll().execute()
      return rows.map((r) => ({
        identifier: r.identifier,
        token: r.token,
        expires: toDate(r.expires),
      }))
    },
    async setSessionExpires(sessionToken, expires) {
      await db
        .updateTable("sessions")
        .set({ expires: stamp(expires) })
        .where("session_token", "=", sessionToken)
        .execute()
    },
    async setTokenExpires(identifier, expires) {
      await db
        .updateTable("verification_tokens")
        .set({ expires: stamp(expires) })
        .where("identifier", "=", identifier)
        .execute()
    },
    async close() {
      await adapter.close()
      await cleanup()
    },
  }
}

/** SQLite in a file of a fresh temp dir, migrated. */
export async function sqliteBackend(): Promise<Backend & { path: string }> {
  const dir = mkdtempSync(join(tmpdir(), "tessera-core-sqlite-"))
  const path = join(dir, "auth.db")
  const adapter = SqlAdapter.sqlite(path)
  await adapter.migrate()
  return {
    ...sqlBackend("sqlite", adapter, async () => rmSync(dir, { recursive: true, force: true })),
    path,
  }
}

/**
 * One PostgreSQL server per test file (or `DATABASE_URL`), started on first
 * use; each backend gets a schema of its own, dropped when it closes.
 */
export class PostgresFixture {
  server: PostgresServer | undefined
  admin: pg.Client | undefined
  readonly run = crypto.randomUUID().slice(0, 8)
  private count = 0

  async start(): Promise<void> {
    this.server = await startPostgres()
    this.admin = new pg.Client(this.server.url)
    await this.admin.connect()
  }

  get url(): string {
    return this.server!.url
  }

  async freshSchema(): Promise<string> {
    const schema = `tessera_core_${this.run}_${++this.count}`
    await this.admin!.query(`create schema "${schema}"`)
    return schema
  }

  /** A migrated adapter on a fresh schema, reached through `url` (default: the server's). */
  async backend(url = this.url): Promise<Backend & { schema: string; sql: SqlAdapterInstance }> {
    const schema = await this.freshSchema()
    const adapter = SqlAdapter.postgres({
      connectionString: url,
      options: `-c search_path=${schema}`,
      connectionTimeoutMillis: 3000,
    })
    await adapter.migrate()
    const backend = sqlBackend("postgres", adapter, async () => {
      await this.admin!.query(`drop schema if exists "${schema}" cascade`)
    })
    return { ...backend, schema, sql: adapter }
  }

  async stop(): Promise<void> {
    await this.admin?.end().catch(() => undefined)
    await this.server?.stop()
  }
}
