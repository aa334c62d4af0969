/**
 * Kysely instances for the two engines, set up the way the adapter needs them.
 * Drivers are imported on first use, so a SQLite app never loads `pg`.
 * @module
 */
import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { Kysely, PostgresAdapter, PostgresDialect, SqliteAdapter, SqliteDialect } from "kysely"
import type BetterSqlite3 from "better-sqlite3"
import type pg from "pg"
import { maskUrl } from "./redact.js"
import type { Database, SqlDialect } from "./schema.js"

/** A database named on the command line: a SQLite file or a PostgreSQL URL. */
export type DatabaseLocation = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string }

/** `SQLite ./data/auth.db` or `PostgreSQL postgres://app:***@db/app`: fit to print. */
export function describeLocation(location: DatabaseLocation): string {
  return location.kind === "postgres"
    ? `PostgreSQL ${maskUrl(location.url)}`
    : `SQLite ${location.path}`
}

/**
 * Opens (creating it and its folder if needed) a SQLite database file:
 * WAL journal (readers do not block the writer), foreign keys enforced,
 * a 5 s busy timeout for other processes' writes.
 *
 * better-sqlite3 is synchronous and Kysely gives SQLite one connection, so
 * statements from one process are serialized; use one instance per file per
 * process (two in one process would wait on each other's locks synchronously).
 */
export function sqliteDatabase(path: string): Kysely<Database> {
  return new Kysely<Database>({
    dialect: new SqliteDialect({
      database: async () => {
        const { default: Sqlite } = await import("better-sqlite3")
        const memory = path === ":memory:" || path === ""
        if (!memory) mkdirSync(dirname(path), { recursive: true })
        const db: BetterSqlite3.Database = new Sqlite(path, { timeout: BUSY_TIMEOUT_MS })
        if (!memory) await enableWal(db)
        // NORMAL is durable across application crashes in WAL mode; only a power
        // loss may drop the last commits. The default (FULL) syncs on every commit.
        db.pragma("synchronous = NORMAL")
        db.pragma("foreign_keys = ON")
        return cachingStatements(db)
      },
    }),
  })
}

/** How long a statement waits for another process's lock on the file. */
const BUSY_TIMEOUT_MS = 5000

/**
 * Switches a file to WAL. The switch needs the file to itself, and SQLite
 * answers SQLITE_BUSY at once (its busy timeout does not apply) while another
 * process holds it: several processes opening one new file together (a cluster
 * starting, `tessera migrate` beside the app) would crash all but one. So the
 * switch is retried, with jitter, for as long as the busy timeout; on a file
 * already in WAL mode it is a read that never waits.
 */
async function enableWal(db: BetterSqlite3.Database): Promise<void> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS
  for (;;) {
    try {
      db.pragma("journal_mode = WAL")
      return
    } catch (error) {
      const busy = (error as { code?: unknown }).code === "SQLITE_BUSY"
      if (!busy || Date.now() >= deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40))
    }
  }
}

/** How many prepared statements a SQLite connection keeps. */
const STATEMENT_CACHE_SIZE = 64

/**
 * `db` keeping its prepared statements by SQL text. Kysely prepares each query
 * it runs, and preparing (SQLite parsing and planning the statement) cost a
 * session check about as much as running it; the adapter's queries are few
 * and fixed (the session check's is compiled once), so each is prepared once.
 * Reusing a statement is safe here: Kysely runs one query at a time on its one
 * SQLite connection, and every run binds its own parameters.
 */
function cachingStatements(db: BetterSqlite3.Database): BetterSqlite3.Database {
  const prepare = db.prepare.bind(db)
  const statements = new Map<string, BetterSqlite3.Statement>()
  db.prepare = ((source: string) => {
    let statement = statements.get(source)
    if (!statement) {
      statement = prepare(source)
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear()
      statements.set(source, statement)
    }
    return statement
  }) as typeof db.prepare
  return db
}

/**
 * A SQLite file that must already exist, opened as it is: no folder or file is
 * created and its journal mode is left alone (unlike `sqliteDatabase`, which
 * switches a file to WAL for good). For reading a database Tessera does not
 * own, such as an Auth.js app's; `readonly` guarantees nothing is written.
 */
export function existingSqliteDatabase(
  path: string,
  options: { readonly?: boolean } = {},
): Kysely<any> {
  return new Kysely<any>({
    dialect: new SqliteDialect({
      database: async () => {
        const { default: Sqlite } = await import("better-sqlite3")
        const readonly = options.readonly === true
        const db: BetterSqlite3.Database = new Sqlite(path, {
          timeout: 5000,
          fileMustExist: true,
          readonly,
        })
        if (!readonly) db.pragma("foreign_keys = ON")
        return db
      },
    }),
  })
}

/**
 * Connections the pool opens at most, unless the config says otherwise (pg's
 * own default is 10). A session check holds a connection for one round trip;
 * with 10, the 11th concurrent check waits for one to come free, and at 64 in
 * flight most of a check's time was that wait. Connections open only under
 * load and close after 10 s idle (pg's `idleTimeoutMillis`).
 *
 * Sizing: every process has its own pool, and all of them share the server's
 * `max_connections` (100 by default, a few reserved): with N processes, keep
 * `max` at or below (max_connections - 10) / N, or put PgBouncer (transaction
 * mode) in front. More connections than requests in flight buy nothing.
 */
export const DEFAULT_POOL_MAX = 64

/**
 * How long connecting (or waiting for a free connection of a full pool) may take,
 * unless the config sets `connectionTimeoutMillis`. A refused connection (server
 * stopped) fails at once; this bounds a server that does not answer at all.
 */
export const DEFAULT_CONNECTION_TIMEOUT_MS = 10_000

/**
 * How long a statement may go unanswered, unless the config sets `query_timeout`
 * (0: no limit). pg's own default waits forever: a connection whose server froze
 * or dropped off the network (no FIN, no RST) would hang every request that gets
 * it. Generous, so that legitimate slow work (`migrate()` building an index on a
 * large table, `purge()` after a long pause) is not cut; the adapter's own
 * statements take milliseconds. `statement_timeout` (server side) is the tool for
 * slow queries; this is for a server that stopped answering.
 */
export const DEFAULT_QUERY_TIMEOUT_MS = 30_000

/**
 * A pool on a connection string or `pg.PoolConfig`: up to {@link DEFAULT_POOL_MAX}
 * connections, and, unlike pg's defaults (wait forever), connecting gives up after
 * {@link DEFAULT_CONNECTION_TIMEOUT_MS} and a statement after
 * {@link DEFAULT_QUERY_TIMEOUT_MS} unless the config says otherwise: a database
 * that is down or stopped answering should fail a request, not hang it.
 */
export function postgresDatabase(config: string | pg.PoolConfig): Kysely<Database> {
  const poolConfig: pg.PoolConfig = {
    connectionTimeoutMillis: DEFAULT_CONNECTION_TIMEOUT_MS,
    query_timeout: DEFAULT_QUERY_TIMEOUT_MS,
    max: DEFAULT_POOL_MAX,
    ...(typeof config === "string" ? { connectionString: config } : config),
  }
  return new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: async () => {
        const { default: pgModule } = await import("pg")
        const pool = new pgModule.Pool(poolConfig)
        // An idle client losing its connection (server restart) emits "error" on
        // the pool; unhandled, that would crash the process. The pool already
        // drops the client, and the next query reports any lasting problem.
        pool.on("error", () => {})
        // A client checked out of the pool has no pool listener: if its connection
        // drops mid-query, pg rejects the query *and* emits "error" on the client,
        // which would crash the process. The rejection is what reports it.
        pool.on("connect", (client) => {
          client.on("error", () => {})
          closingOnTimeout(client)
        })
        return pool
      },
    }),
  })
}

/**
 * Makes `client` close its connection when a statement times out (`query_timeout`).
 * pg fails the statement but leaves it in flight on the connection, so the client
 * would go back to the pool and every statement sent on it later (the transaction's
 * ROLLBACK, the next request's session check) would queue behind the unanswered one
 * and time out in turn. Closed, the pool drops it when it is released and opens a
 * fresh connection for the next request. Statements sent on it meanwhile (Kysely's
 * ROLLBACK) fail at once with the timeout, so that is what the caller reports, not
 * "Client was closed".
 */
function closingOnTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  let timedOut: Error | undefined
  client.query = ((...args: unknown[]) => {
    // Kysely's plain statements: `query(sql, parameters)`, answered by a promise.
    const plain = typeof args[0] === "string" && typeof args.at(-1) !== "function"
    if (timedOut && plain) return Promise.reject(timedOut)
    const result = query(...args)
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        // pg's message for a `query_timeout`: it has no code.
        if (error instanceof Error && error.message === "Query read timeout" && !timedOut) {
          timedOut = error
          client.end().catch(() => {})
        }
      })
    }
    return result
  }) as typeof client.query
}

/** The engine behind a Kysely instance, when its dialect is one Kysely ships. */
export function detectDialect(db: Kysely<any>): SqlDialect | undefined {
  const adapter = db.getExecutor().adapter
  if (adapter instanceof PostgresAdapter) return "postgres"
  if (adapter instanceof SqliteAdapter) return "sqlite"
  // Another copy of Kysely, or a third-party dialect built on these adapters.
  const name = adapter.constructor?.name ?? ""
  if (/postgres/i.test(name)) return "postgres"
  if (/sqlite/i.test(name)) return "sqlite"
  return undefined
}
