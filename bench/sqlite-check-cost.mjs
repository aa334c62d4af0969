// What a database session check costs on SQLite, layer by layer, in one process:
//
//   statement   better-sqlite3 running the check's query, prepared once (the floor:
//               SQLite itself, and building the row)
//   adapter     @tessera/sql's `getSessionAndUser` (Kysely: the compiled query, its
//               connection lock, the row mapped to a session and a user)
//   getSession  @tessera/core's `getSession` with database sessions, as
//               `locals.auth()` calls it (the token hashed, the adapter call, the
//               expiry and `session` callback; no Request, no HTTP)
//
// each measured twice: in a tight loop, and "in a page": inside an
// AsyncLocalStorage context (SvelteKit keeps one per request, which makes every
// promise cost more) with allocations between checks (as rendering a page
// does, which evicts caches). The layers alternate in every round, and each
// figure is the median over rounds of µs per check.
//
// Why: the signed-in SvelteKit page with database sessions (bench/sveltekit-page.mjs)
// is over its target on some machines. This shows which layer the cost is in:
// what the library adds is `getSession - statement`.
//
// Run: npm run build && node bench/sqlite-check-cost.mjs [rounds=15] [checks per round=4000]
// Writes bench/results/sqlite-check-cost.json. Information only: no target.
import { AsyncLocalStorage } from "node:async_hooks"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { getSession } from "../packages/core/dist/index.js"
import { SqlAdapter } from "../packages/sql/dist/index.js"
import { median, round, writeResult } from "./lib/stats.mjs"

const ROUNDS = Number(process.argv[2] ?? 15)
const CHECKS = Number(process.argv[3] ?? 4000)

const dir = mkdtempSync(join(tmpdir(), "tessera-sqlite-check-"))
const path = join(dir, "sessions.db")
const adapter = SqlAdapter.sqlite(path)
await adapter.migrate()
await adapter.createUser({
  id: "user-ada",
  name: "Ada Lovelace",
  email: "ada@example.com",
  emailVerified: null,
  image: null,
})
// Tessera stores the SHA-256 of the cookie's token.
const token = randomBytes(32).toString("hex")
const stored = createHash("sha256").update(token).digest("hex")
await adapter.createSession({
  sessionToken: stored,
  userId: "user-ada",
  expires: new Date(Date.now() + 30 * 86_400_000),
})

// The check's query, as the adapter builds it (packages/sql/src/adapter.ts), run on a
// connection of its own.
const reader = new Database(path, { readonly: true })
const { sql } = adapter.db
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
  .where("sessions.session_token", "=", stored)
  .compile()
const statement = reader.prepare(sql)

const config = {
  secret: "bench-secret-bench-secret-bench-secret-0123456789",
  url: "http://localhost:3000",
  adapter,
  session: { strategy: "database" },
  providers: [],
  logger: { warn() {}, error: console.error, debug() {} },
}
const input = {
  url: new URL("http://localhost:3000/"),
  cookies: { "tessera.session-token": token },
  headers: new Headers(),
}

const layers = {
  statement: () => statement.get(stored),
  adapter: () => adapter.getSessionAndUser(stored),
  getSession: async () => (await getSession(input, config)).session,
}

// Each layer must find the session, or the figures mean nothing.
for (const [name, check] of Object.entries(layers)) {
  const found = await check()
  if (!found) throw new Error(`${name} did not find the session`)
}

const context = new AsyncLocalStorage()
/** Roughly what rendering a small page allocates: objects, strings, one JSON. */
function render() {
  const nodes = []
  for (let i = 0; i < 1500; i++) nodes.push({ tag: "li", text: `item ${i}`, children: [i] })
  return JSON.stringify(nodes)
}

/** Mean µs per check over `CHECKS` checks; with `page`, each in a context after a render. */
async function measure(check, page) {
  let total = 0n
  let rendered = 0
  for (let i = 0; i < CHECKS; i++) {
    // The page stays alive across the check, as a request's work does.
    const html = page ? render() : ""
    const run = async () => {
      const started = process.hrtime.bigint()
      await check()
      total += process.hrtime.bigint() - started
    }
    await (page ? context.run({ request: i }, run) : run())
    rendered += html.length
  }
  if (page && rendered === 0) throw new Error("nothing was rendered")
  return Number(total) / 1000 / CHECKS
}

const names = Object.keys(layers)
const samples = Object.fromEntries(
  names.flatMap((name) => [
    [`${name}`, []],
    [`${name} in a page`, []],
  ]),
)
for (const name of names) await measure(layers[name], true) // warm-up: JIT, caches
for (let r = 0; r < ROUNDS; r++) {
  process.stderr.write(`\rround ${r + 1}/${ROUNDS}   `)
  const order = r % 2 ? [...names].reverse() : names
  for (const name of order) {
    samples[name].push(await measure(layers[name], false))
    samples[`${name} in a page`].push(await measure(layers[name], true))
  }
}
process.stderr.write("\n")
await adapter.close()
reader.close()
rmSync(dir, { recursive: true, force: true })

const figures = Object.fromEntries(
  Object.entries(samples).map(([name, values]) => [name, round(median(values), 2)]),
)
console.log(`Database session check on SQLite, µs per check (median of ${ROUNDS} rounds):`)
console.log("                 tight loop   in a page")
for (const name of names)
  console.log(
    `  ${name.padEnd(13)} ${String(figures[name]).padStart(10)} ${String(figures[`${name} in a page`]).padStart(11)}`,
  )
const added = (suffix) => round(figures[`getSession${suffix}`] - figures[`statement${suffix}`], 2)
console.log(
  `What the library adds to SQLite's own work (getSession - statement): ${added("")} µs, ${added(" in a page")} µs in a page`,
)
writeResult("sqlite-check-cost", {
  rounds: ROUNDS,
  checksPerRound: CHECKS,
  microsPerCheck: figures,
  libraryAddsMicros: { tightLoop: added(""), inAPage: added(" in a page") },
})
