// Warm session check with revocation checks on: JWT sessions with an adapter that keeps
// session records (MemoryAdapter), a token naming a live record and revalidated just now, as a
// browser's cookie is within `revalidateAge` (60 s), so no adapter call. Against the floor of
// bench/session-check.mjs and Auth() without an adapter, in alternating rounds of 2,000.
//
// Run: npm run build && node bench/session-records-check.mjs
import { createDecipheriv } from "node:crypto"
const root = new URL("../", import.meta.url).href
const { Auth } = await import(root + "packages/core/dist/index.js")
const { deriveEncryptionKey, encode } = await import(root + "packages/core/dist/jwt.js")
const { MemoryAdapter } = await import(root + "packages/testing/dist/index.js")
const secret = "bench-secret-bench-secret-bench-secret-0123456789"
const cookieName = "tessera.session-token"
const url = "http://localhost:3000/auth/session"
const adapter = MemoryAdapter()
const user = await adapter.createUser({
  name: "Ada Lovelace",
  email: "ada@example.com",
  emailVerified: null,
  image: null,
})
const now = new Date()
const sid = "0123456789abcdef0123456789abcdef"
await adapter.createSessionRecord({
  id: sid,
  userId: user.id,
  createdAt: now,
  lastSeenAt: now,
  expires: new Date(Date.now() + 30 * 864e5),
  userAgent: null,
  ipPrefix: null,
  provider: null,
  providerAccountId: null,
  providerSessionId: null,
})
const logger = { warn() {} }
const withRecords = {
  secret,
  trustHost: true,
  providers: [],
  adapter,
  session: { strategy: "jwt" },
  logger,
}
const plain = { secret, trustHost: true, providers: [], logger }
const claims = { name: "Ada Lovelace", email: "ada@example.com", picture: null, sub: user.id }
const tRec = await encode({
  token: {
    ...claims,
    auth_time: Math.floor(Date.now() / 1000),
    sid,
    revalidated_at: Math.floor(Date.now() / 1000),
  },
  secret,
  salt: cookieName,
})
const tPlain = await encode({ token: claims, secret, salt: cookieName })
const key = Buffer.from(await deriveEncryptionKey(secret, cookieName))
const cookieRec = `${cookieName}=${tRec}`,
  cookiePlain = `${cookieName}=${tPlain}`
function floor() {
  const request = new Request(url, { headers: { cookie: cookiePlain } })
  const value = request.headers.get("cookie").slice(cookieName.length + 1)
  const [header, , iv, ciphertext, tag] = value.split(".")
  const d = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
  d.setAAD(Buffer.from(header, "ascii"))
  d.setAuthTag(Buffer.from(tag, "base64url"))
  const c = JSON.parse(
    Buffer.concat([d.update(Buffer.from(ciphertext, "base64url")), d.final()]).toString("utf8"),
  )
  return Response.json({
    user: { name: c.name, email: c.email, image: c.picture },
    expires: new Date(c.exp * 1000).toISOString(),
  })
}
const rec = () => Auth(new Request(url, { headers: { cookie: cookieRec } }), withRecords)
const pl = () => Auth(new Request(url, { headers: { cookie: cookiePlain } }), plain)
{
  const r = await rec()
  const b = await r.json()
  if (!b?.user || r.headers.get("set-cookie"))
    throw new Error("records check: " + JSON.stringify(b) + " " + r.headers.get("set-cookie"))
}
let touches = 0
const orig = adapter.touchSessionRecord
adapter.touchSessionRecord = (...a) => {
  touches++
  return orig(...a)
}
async function time(fn, n) {
  const c = process.cpuUsage()
  const s = process.hrtime.bigint()
  for (let i = 0; i < n; i++) await fn()
  const w = Number(process.hrtime.bigint() - s) / 1e3 / n
  const d = process.cpuUsage(c)
  return { wall: w, cpu: (d.user + d.system) / n }
}
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
for (const f of [floor, rec, pl]) await time(f, 2000)
const R = { rec: [], pl: [], recCpu: [], plCpu: [] }
for (let r = 0; r < 15; r++) {
  const f = await time(floor, 2000),
    a = await time(rec, 2000),
    b = await time(pl, 2000)
  R.rec.push(a.wall / f.wall)
  R.pl.push(b.wall / f.wall)
  R.recCpu.push(a.cpu / f.cpu)
  R.plCpu.push(b.cpu / f.cpu)
}
console.log(
  JSON.stringify({
    withRecords: { wall: +med(R.rec).toFixed(2), cpu: +med(R.recCpu).toFixed(2) },
    noAdapter: { wall: +med(R.pl).toFixed(2), cpu: +med(R.plCpu).toFixed(2) },
    touchesDuringRun: touches,
  }),
)
