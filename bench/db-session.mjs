#!/usr/bin/env node
/**
 * Database session check cost: `getSessionAndUser` (one indexed join) against a
 * sessions table of 1k rows and one of 1M rows, on SQLite and PostgreSQL, in
 * the same run. The ratio 1M/1k should be close to 1: a B-tree lookup grows
 * with log(n), and going from 1k to 1M adds a level or two at most.
 *
 *   npm run build && node bench/db-session.mjs
 *
 * Options (env): BENCH_ROUNDS (default 5), BENCH_CALLS_SQLITE (default 4000 per
 * round), BENCH_CALLS_PG (default 1500 per round), BENCH_BIG (default 1000000).
 * PostgreSQL comes from DATABASE_URL or a throwaway server (startPostgres).
 * Results are printed and written to bench/results/db-session.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { sql } from "kysely"
import pg from "pg"
import { SqlAdapter } from "../packages/sql/dist/index.js"
import { startPostgres } from "../packages/testing/dist/postgres.js"

const SMALL = 1_000
const BIG = Number(process.env.BENCH_BIG ?? 1_000_000)
const USERS = 1_000
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const CALLS = {
  sqlite: Number(process.env.BENCH_CALLS_SQLITE ?? 4000),
  postgres: Number(process.env.BENCH_CALLS_PG ?? 1500),
}
const SAMPLE = 2_000
const EXPIRES_MS = Date.now() + 30 * 86_400_000

const fmt = (n) => n.toLocaleString("en-US")
const elapsed = (t0) => `${((performance.now() - t0) / 1000).toFixed(1)} s`

/** Users, then `count` sessions with random 64-hex tokens, in one statement each. */
async function fill(adapter, count) {
  const db = adapter.db
  if (adapter.dialect === "sqlite") {
    // Literals, not parameters: better-sqlite3 binds JS numbers as REAL ('user-1.0').
    await sql`with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${sql.lit(USERS)})
      insert into users (id, name, email, image) select 'user-' || i, 'User ' || i, 'user-' || i || '@example.com', null from n`.execute(
      db,
    )
    // Sorted by token, the primary-key B-tree is appended to instead of split at random.
    await sql`pragma cache_size = -131072`.execute(db)
    await sql`with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < ${sql.lit(count)})
      insert into sessions (session_token, user_id, expires)
      select t, 'user-' || (i % ${sql.lit(USERS)}), ${sql.lit(EXPIRES_MS)}
      from (select lower(hex(randomblob(32))) as t, i from n) order by t`.execute(db)
    await sql`pragma cache_size = -2000`.execute(db)
    await sql`analyze`.execute(db)
  } else {
    await sql`insert into users (id, name, email, image)
      select 'user-' || i, 'User ' || i, 'user-' || i || '@example.com', null from generate_series(0, ${USERS - 1}) as i`.execute(
      db,
    )
    await sql`insert into sessions (session_token, user_id, expires)
      select encode(sha256(convert_to(i::text || ${String(Math.random())}, 'UTF8')), 'hex') as t, 'user-' || (i % ${USERS}), ${new Date(EXPIRES_MS)}
      from generate_series(0, ${count - 1}) as i order by t`.execute(db)
    await sql`analyze users`.execute(db)
    await sql`analyze sessions`.execute(db)
  }
  const sample =
    await sql`select session_token from sessions order by random() limit ${SAMPLE}`.execute(db)
  return sample.rows.map((r) => r.session_token)
}

/** Mean µs per sequential `getSessionAndUser` call over `calls` calls. */
async function measure(adapter, tokens, calls) {
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) {
    const found = await adapter.getSessionAndUser(tokens[i % tokens.length])
    if (!found) throw new Error("a sampled session was not found")
  }
  return Number(process.hrtime.bigint() - t0) / 1000 / calls
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

/** Builds both tables, then alternates rounds small/big so drift hits both alike. */
async function compare(engine, small, big) {
  let t0 = performance.now()
  const smallTokens = await fill(small, SMALL)
  console.log(`  ${engine}: ${fmt(SMALL)} sessions in ${elapsed(t0)}`)
  t0 = performance.now()
  const bigTokens = await fill(big, BIG)
  console.log(`  ${engine}: ${fmt(BIG)} sessions in ${elapsed(t0)}`)
  const calls = CALLS[engine]
  await measure(small, smallTokens, Math.min(500, calls)) // warm-up: JIT, caches, pool
  await measure(big, bigTokens, Math.min(500, calls))
  const rounds = { small: [], big: [] }
  for (let r = 0; r < ROUNDS; r++) {
    rounds.small.push(await measure(small, smallTokens, calls))
    rounds.big.push(await measure(big, bigTokens, calls))
  }
  const result = {
    engine,
    small: median(rounds.small),
    big: median(rounds.big),
    calls,
    rounds: ROUNDS,
  }
  result.ratio = result.big / result.small
  return result
}

async function sqliteBench() {
  const dir = mkdtempSync(join(tmpdir(), "tessera-bench-"))
  const small = SqlAdapter.sqlite(join(dir, "small.db"))
  const big = SqlAdapter.sqlite(join(dir, "big.db"))
  try {
    await small.migrate()
    await big.migrate()
    return await compare("sqlite", small, big)
  } finally {
    await small.close()
    await big.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function postgresBench() {
  const t0 = performance.now()
  const server = await startPostgres()
  console.log(`  postgres: server ready in ${elapsed(t0)}`)
  const admin = new pg.Client(server.url)
  const run = Math.random().toString(36).slice(2, 8)
  const schemas = [`bench_${run}_small`, `bench_${run}_big`]
  const adapters = []
  try {
    await admin.connect()
    for (const schema of schemas) {
      await admin.query(`create schema ${schema}`)
      const adapter = SqlAdapter.postgres({
        connectionString: server.url,
        options: `-c search_path=${schema}`,
        max: 4,
      })
      adapters.push(adapter)
      await adapter.migrate()
    }
    return await compare("postgres", adapters[0], adapters[1])
  } finally {
    for (const adapter of adapters) await adapter.close().catch(() => {})
    for (const schema of schemas)
      await admin.query(`drop schema if exists ${schema} cascade`).catch(() => {})
    await admin.end().catch(() => {})
    await server.stop()
  }
}

const started = performance.now()
console.log(
  `getSessionAndUser: ${fmt(SMALL)} vs ${fmt(BIG)} sessions (${fmt(USERS)} users), median of ${ROUNDS} rounds`,
)
const results = [await sqliteBench(), await postgresBench()]

console.log("")
console.log("engine     µs/call @1k   µs/call @1M   ratio 1M/1k")
for (const r of results) {
  console.log(
    `${r.engine.padEnd(10)} ${r.small.toFixed(1).padStart(11)}   ${r.big.toFixed(1).padStart(11)}   ${r.ratio.toFixed(2).padStart(11)}`,
  )
}
console.log(`\ntotal ${elapsed(started)}`)

const out = new URL("./results/", import.meta.url)
mkdirSync(out, { recursive: true })
writeFileSync(
  new URL("db-session.json", out),
  `${JSON.stringify({ date: new Date().toISOString(), small: SMALL, big: BIG, users: USERS, results }, null, 2)}\n`,
)
