// In-process session check: `Auth()` answering GET /auth/session with a valid
// JWT session cookie, against a floor measured in the same process and run.
//
// The floor is the work no implementation can skip: build the Request, read its
// cookie, one AES-256-GCM decrypt with node:crypto (synchronous, no JWE parsing
// or claim checks), JSON.parse, Response.json. Rounds alternate floor and Auth()
// so that machine noise (other processes, CPU frequency) hits both alike; the
// figure reported is the median of the per-round ratios.
//
// The same cookie on every request is what a browser sends, and Tessera's key ring keeps the
// tokens it decrypted (jwt/jwe.ts): that figure is the target's. A second figure cycles through
// 1,024 distinct cookies (more than the ring keeps), on both sides, so every check decrypts.
//
// Run: npm run build && node bench/session-check.mjs [rounds] [iterations]
// TESSERA_DIST=<dir> measures another build (e.g. an older one) in the same way.
// The result is printed and written to bench/results/session-check.json.
import { createDecipheriv } from "node:crypto"
import { mkdirSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { fileURLToPath, pathToFileURL } from "node:url"

const dist = process.env.TESSERA_DIST
  ? pathToFileURL(`${process.env.TESSERA_DIST.replace(/\/$/, "")}/`).href
  : new URL("../packages/core/dist/", import.meta.url).href
const { Auth } = await import(new URL("index.js", dist).href)
const { deriveEncryptionKey, encode } = await import(new URL("jwt.js", dist).href)

const ROUNDS = Number(process.argv[2] ?? 21)
const ITERATIONS = Number(process.argv[3] ?? 2000)
const TARGET = 1.2

const secret = "bench-secret-bench-secret-bench-secret-0123456789"
const cookieName = "tessera.session-token"
const url = "http://localhost:3000/auth/session"
const config = { secret, trustHost: true, providers: [] }

const token = await encode({
  token: {
    name: "Ada Lovelace",
    email: "ada@example.com",
    picture: null,
    sub: "7d3c1a2e-5f0b-4c8e-9a41-2b6f3e8d9c10",
  },
  secret,
  salt: cookieName,
})
const cookie = `${cookieName}=${token}`
const key = Buffer.from(await deriveEncryptionKey(secret, cookieName))

/** 1,024 sessions' cookies (more than the key ring keeps), for the figure where every check decrypts. */
const distinct = []
for (let i = 0; i < 1024; i++) {
  const value = await encode({
    token: { name: "Ada Lovelace", email: "ada@example.com", picture: null, sub: `user-${i}` },
    secret,
    salt: cookieName,
  })
  distinct.push(`${cookieName}=${value}`)
}
let next = 0
const nextCookie = () => distinct[(next = (next + 1) % distinct.length)]

/** The floor: one request's unavoidable work, with the cheapest primitives Node has. */
function floor(cookie) {
  const request = new Request(url, { headers: { cookie } })
  const value = request.headers.get("cookie").slice(cookieName.length + 1)
  const [header, , iv, ciphertext, tag] = value.split(".")
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
  decipher.setAAD(Buffer.from(header, "ascii"))
  decipher.setAuthTag(Buffer.from(tag, "base64url"))
  const claims = JSON.parse(
    Buffer.concat([
      decipher.update(Buffer.from(ciphertext, "base64url")),
      decipher.final(),
    ]).toString("utf8"),
  )
  return Response.json({
    user: { name: claims.name, email: claims.email, image: claims.picture },
    expires: new Date(claims.exp * 1000).toISOString(),
  })
}

function auth(cookie) {
  return Auth(new Request(url, { headers: { cookie } }), config)
}

const sameCookie = { floor: () => floor(cookie), auth: () => auth(cookie) }
const distinctCookies = { floor: () => floor(nextCookie()), auth: () => auth(nextCookie()) }

// Both paths must answer the same session, and Auth() must not re-issue the cookie.
{
  const [a, b] = [await floor(cookie).json(), await auth(cookie)]
  const body = await b.json()
  if (
    b.status !== 200 ||
    JSON.stringify(body) !== JSON.stringify(a) ||
    b.headers.get("set-cookie")
  ) {
    throw new Error(
      `Auth() answered ${b.status} ${JSON.stringify(body)} set-cookie=${b.headers.get("set-cookie")}; floor ${JSON.stringify(a)}`,
    )
  }
}

/**
 * Microseconds per call: wall time, and CPU time (user + system of this
 * process, from `process.cpuUsage`), which a busy neighbour taking the core
 * away barely moves.
 */
async function time(fn, n) {
  const cpu = process.cpuUsage()
  const start = process.hrtime.bigint()
  for (let i = 0; i < n; i++) await fn()
  const wall = Number(process.hrtime.bigint() - start) / 1000 / n
  const { user, system } = process.cpuUsage(cpu)
  return { wall, cpu: (user + system) / n }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Alternating rounds of the floor and `Auth()`: median wall and CPU times, and their ratios. */
async function measure({ floor, auth }) {
  // Warm-up: JIT, key cache, resolved configuration.
  await time(floor, ITERATIONS)
  await time(auth, ITERATIONS)
  const floors = []
  const auths = []
  const ratios = []
  const cpuFloors = []
  const cpuAuths = []
  const cpuRatios = []
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first so neither always runs on a warmer or colder machine.
    let f, a
    if (round % 2 === 0) {
      f = await time(floor, ITERATIONS)
      a = await time(auth, ITERATIONS)
    } else {
      a = await time(auth, ITERATIONS)
      f = await time(floor, ITERATIONS)
    }
    floors.push(f.wall)
    auths.push(a.wall)
    ratios.push(a.wall / f.wall)
    cpuFloors.push(f.cpu)
    cpuAuths.push(a.cpu)
    cpuRatios.push(a.cpu / f.cpu)
  }
  return {
    floorMedianMicros: +median(floors).toFixed(1),
    authMedianMicros: +median(auths).toFixed(1),
    medianRatio: +median(ratios).toFixed(2),
    cpu: {
      floorMedianMicros: +median(cpuFloors).toFixed(1),
      authMedianMicros: +median(cpuAuths).toFixed(1),
      medianRatio: +median(cpuRatios).toFixed(2),
    },
  }
}

const same = await measure(sameCookie)
const everyCheckDecrypts = await measure(distinctCookies)

const result = {
  node: process.version,
  dist: process.env.TESSERA_DIST ?? "packages/core/dist",
  rounds: ROUNDS,
  iterations: ITERATIONS,
  ...same,
  everyCheckDecrypts,
  loadAverage: loadavg().map((x) => +x.toFixed(2)),
  target: TARGET,
}
console.log(JSON.stringify(result, null, 2))
if (!process.env.TESSERA_DIST) {
  const dir = fileURLToPath(new URL("./results/", import.meta.url))
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    `${dir}session-check.json`,
    `${JSON.stringify({ ...result, date: new Date().toISOString() }, null, 2)}\n`,
  )
}
if (result.medianRatio > TARGET) {
  console.error(`median ratio ${result.medianRatio} exceeds ${TARGET}`)
  process.exitCode = 1
}
