// Differential compatibility check: Tessera's `Auth()` against Auth.js's own (`@auth/core`
// 0.41.3) as a reference oracle. Tessera's promise is that an Auth.js v5 app moves over by
// changing `@auth/` to `@tessera/`; reading Auth.js's source tells what it means to do, running
// it tells what it does. So each scenario below builds the SAME configuration with each
// library's own factories (Credentials, GitHub, CredentialsSignin, a memory adapter), sends the
// SAME sequence of Requests through both (each library keeping its own cookie jar, so a session
// comes from that library's own sign-in), and prints every difference in:
//   - status;
//   - Location (and the `{ url }` of `X-Auth-Return-Redirect: 1`): the origin and the cookie
//     prefix (`authjs.` / `tessera.`) normalised, random values (state, nonce, PKCE, tokens)
//     masked, the `error` and `code` query values compared apart;
//   - JSON bodies: keys and value types (shape), and for the session and `{ url }` the values
//     that are deterministic under the fixed clock;
//   - cookies set or cleared, by role (`session-token`, `csrf-token`, ...), not by name;
//   - for the OAuth/OIDC sign-ins against a live provider on loopback (`startOidcProvider` of
//     @tessera/testing, one per library): the arguments of every callback, event, provider
//     `profile()` and adapter call, as values, one per field (random ones masked to their type,
//     times as offsets from the fixed clock), and the order of the calls.
//   - the adapter contract ("adapter contract:" scenarios): every call an Auth.js-style adapter
//     gets in each flow, in order, with its arguments as values.
// A difference is not a bug by itself: docs/migrating-from-authjs.md lists where Tessera is
// stricter on purpose. The script prints; it does not judge (it exits 0 either way).
//
// Never part of `npm test`, and never a dependency: `@auth/core` is imported by absolute path
// from the benchmark baseline (bench/lib/baseline.mjs installs it into bench/.baseline/authjs).
//
// Run (from the repository root):
//   npm run build && node bench/compat-diff.mjs [scenario-name-filter]
//   AUTHJS_DIR=/path/to/bench/.baseline/authjs node bench/compat-diff.mjs   # another baseline
//   node bench/compat-diff.mjs --all    # also print the observations that agree
//   node bench/compat-diff.mjs --logs   # compare what each logged (errors, warnings) too
//   node bench/compat-diff.mjs --sql    # Tessera's adapter is @tessera/sql on a SQLite file
// With --sql, every adapter Tessera gets in a scenario (its memory adapter, and the inner
// adapter of the recorded one) is `SqlAdapter.sqlite` on a fresh file, migrated, with the same
// methods as the script's adapter; Auth.js keeps the script's adapter (it ships no SQL one in
// @auth/core). What differs with --sql and not without it is the SQL adapter's doing.
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = fileURLToPath(new URL("../", import.meta.url))
const authjsDir = process.env.AUTHJS_DIR ?? join(root, "bench", ".baseline", "authjs")
const authjsCore = join(authjsDir, "node_modules", "@auth", "core")
if (!existsSync(authjsCore)) {
  console.error(`No @auth/core at ${authjsCore}: run a benchmark once (it installs the baseline),`)
  console.error("or point AUTHJS_DIR at a folder whose node_modules holds @auth/core 0.41.3.")
  process.exit(2)
}
const tesseraDist = join(root, "packages", "core", "dist")
const testingDist = join(root, "packages", "testing", "dist")
const load = (dir, file) => import(pathToFileURL(join(dir, file)).href)

// Auth() reads process.env by itself in Tessera (Auth.js only through setEnvDefaults): keep the
// environment out of the comparison, everything is in the configurations; the "env:" scenarios
// set their own variables for each library's run and apply them with setEnvDefaults, as the
// integrations do.
for (const name of Object.keys(process.env)) if (/^AUTH_/.test(name)) delete process.env[name]

// ---------------------------------------------------------------------------------------------
// A fixed clock, shared by both libraries (they read the global Date): expiries and token
// lifetimes come out identical, and the e-mail scenarios can move time on.
const RealDate = Date
const clock = { now: RealDate.parse("2026-03-01T12:00:00.000Z") }
class FixedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(clock.now)
    else super(...args)
  }
  static now() {
    return clock.now
  }
}
globalThis.Date = FixedDate

// ---------------------------------------------------------------------------------------------
// The two libraries, behind one shape.
const ORIGIN = "http://localhost:3000"
// The issuers of the scenarios' providers on loopback (random ports): normalised to `<idp>`.
const idps = new Set()

async function loadLibraries() {
  const authjs = {
    name: "authjs",
    ...(await load(authjsCore, "index.js")),
    Credentials: (await load(authjsCore, "providers/credentials.js")).default,
    GitHub: (await load(authjsCore, "providers/github.js")).default,
    Keycloak: (await load(authjsCore, "providers/keycloak.js")).default,
    errors: await load(authjsCore, "errors.js"),
    memoryAdapter: () => scriptMemoryAdapter(),
  }
  const { MemoryAdapter } = await load(testingDist, "memory-adapter.js")
  const { SqlAdapter } = useSql ? await load(sqlDist, "index.js") : {}
  const tessera = {
    name: "tessera",
    ...(await load(tesseraDist, "index.js")),
    Credentials: (await load(tesseraDist, "providers/credentials.js")).default,
    GitHub: (await load(tesseraDist, "providers/github.js")).default,
    Keycloak: (await load(tesseraDist, "providers/keycloak.js")).default,
    errors: await load(tesseraDist, "errors.js"),
    memoryAdapter: () => (useSql ? sqliteAdapter(SqlAdapter) : MemoryAdapter()),
    SqlAdapter,
  }
  return [authjs, tessera]
}

const useSql = process.argv.includes("--sql")
/** The script's adapter; with --sql, Tessera's side is @tessera/sql instead. */
const scriptAdapterFor = (L) =>
  useSql && L.SqlAdapter ? sqliteAdapter(L.SqlAdapter) : scriptMemoryAdapter()
const sqlDist = join(root, "packages", "sql", "dist")

/**
 * `@tessera/sql` on a fresh SQLite file, migrated before its first call, exposing the script
 * adapter's methods (so both libraries see adapters of the same capabilities).
 */
function sqliteAdapter(SqlAdapter) {
  const adapter = SqlAdapter.sqlite(
    join(mkdtempSync(join(tmpdir(), "compat-diff-sql-")), "auth.db"),
  )
  const ready = adapter.migrate()
  return Object.fromEntries(
    Object.keys(scriptMemoryAdapter()).map((name) => [
      name,
      async (...args) => {
        await ready
        return adapter[name](...args)
      },
    ]),
  )
}

/** A minimal Auth.js-style adapter over Maps (Auth.js ships none in @auth/core). */
function scriptMemoryAdapter() {
  const users = new Map()
  const accounts = new Map()
  const sessions = new Map()
  const tokens = new Map()
  let next = 0
  const byEmail = (email) => [...users.values()].find((u) => u.email === email) ?? null
  return {
    async createUser(user) {
      const created = { ...user, id: `user-${++next}` }
      users.set(created.id, created)
      return { ...created }
    },
    getUser: async (id) => (users.has(id) ? { ...users.get(id) } : null),
    getUserByEmail: async (email) => {
      const user = byEmail(email)
      return user ? { ...user } : null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.get(`${provider}:${providerAccountId}`)
      return account ? { ...users.get(account.userId) } : null
    },
    async updateUser(user) {
      const updated = { ...users.get(user.id), ...user }
      users.set(user.id, updated)
      return { ...updated }
    },
    async linkAccount(account) {
      accounts.set(`${account.provider}:${account.providerAccountId}`, { ...account })
      return account
    },
    async createSession(session) {
      sessions.set(session.sessionToken, { ...session })
      return { ...session }
    },
    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      if (!session) return null
      return { session: { ...session }, user: { ...users.get(session.userId) } }
    },
    async updateSession(session) {
      const updated = { ...sessions.get(session.sessionToken), ...session }
      sessions.set(session.sessionToken, updated)
      return { ...updated }
    },
    async deleteSession(sessionToken) {
      sessions.delete(sessionToken)
    },
    async createVerificationToken(token) {
      tokens.set(`${token.identifier}:${token.token}`, { ...token })
      return token
    },
    async useVerificationToken({ identifier, token }) {
      const key = `${identifier}:${token}`
      const found = tokens.get(key) ?? null
      tokens.delete(key)
      return found
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Configurations: one function per scenario family, called once per library so that each gets
// its own objects (both cache or mutate what they are given).
const SECRET = "compat-diff-secret-compat-diff-secret-0123456789"
// Errors logged by each library, per step: printed with --logs (to see why a side failed).
const logged = []
const silentLogger = {
  error: (e) => logged.push(`error ${e?.type ?? e?.name}: ${String(e?.message).slice(0, 160)}`),
  warn: (w) => logged.push(`warn ${typeof w === "string" ? w : (w?.type ?? w?.name)}`),
  debug() {},
}

const USERS = { ada: { id: "1", name: "Ada Lovelace", email: "ada@example.com" } }

function credentialsProvider(L, extra = {}) {
  class Locked extends L.errors.CredentialsSignin {
    code = "locked"
  }
  return L.Credentials({
    credentials: { username: { label: "User" }, password: { label: "Password", type: "password" } },
    async authorize({ username, password }) {
      if (username === "locked") throw new Locked()
      if (username === "boom") throw new Error("database down")
      const user = USERS[username]
      return user && password === "right" ? user : null
    },
    ...extra,
  })
}

function baseConfig(L, overrides = {}) {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    logger: silentLogger,
    providers: [credentialsProvider(L)],
    ...overrides,
  }
}

// ---------------------------------------------------------------------------------------------
// A browser: a cookie jar per library and scenario, and requests as Auth.js's client sends them.
class Browser {
  constructor(L, config) {
    this.L = L
    this.config = config
    this.jar = new Map()
  }
  cookieHeader() {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ")
  }
  async send(method, path, { form, json, headers = {}, origin = ORIGIN } = {}) {
    const init = { method, headers: { ...headers }, redirect: "manual" }
    if (this.jar.size) init.headers.cookie = this.cookieHeader()
    if (method === "POST") init.headers.origin ??= origin
    if (form) {
      init.body = new URLSearchParams(form).toString()
      init.headers["content-type"] = "application/x-www-form-urlencoded"
    } else if (json) {
      init.body = JSON.stringify(json)
      init.headers["content-type"] = "application/json"
    }
    let response
    try {
      response = await this.L.Auth(new Request(`${origin}${path}`, init), this.config)
    } catch (error) {
      return { thrown: error?.type ?? error?.name ?? String(error) }
    }
    for (const line of response.headers.getSetCookie?.() ?? []) {
      const [pair, ...attrs] = line.split(";")
      const name = pair.slice(0, pair.indexOf("="))
      const value = pair.slice(pair.indexOf("=") + 1)
      const cleared = value === "" || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))
      if (cleared) this.jar.delete(name)
      else this.jar.set(name, value)
    }
    return { response, body: await readBody(response) }
  }
  async csrf() {
    const { body } = await this.send("GET", `${basePathOf(this.config)}/csrf`)
    return body?.csrfToken
  }
}

const basePathOf = (config) => (config.basePath ?? "/auth").replace(/\/$/, "")

async function readBody(response) {
  const type = response.headers.get("content-type") ?? ""
  const text = await response.text()
  if (type.includes("json")) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}

// ---------------------------------------------------------------------------------------------
// Normalisation: what is compared of one response.
const RANDOM_PARAMS = new Set(["state", "nonce", "code_challenge", "token", "csrfToken"])

function normaliseUrl(raw, prefix) {
  if (raw == null) return null
  let url
  try {
    url = new URL(raw, ORIGIN)
  } catch {
    return `<unparsable ${raw}>`
  }
  const origin = url.origin === ORIGIN ? "<origin>" : idps.has(url.origin) ? "<idp>" : url.origin
  const params = [...url.searchParams]
    .filter(([k]) => k !== "error" && k !== "code")
    .map(([k, v]) => [k, RANDOM_PARAMS.has(k) ? "<random>" : normaliseText(v, prefix)])
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
  return `${origin}${url.pathname}${params.length ? `?${params.join("&")}` : ""}`
}

/** The origin and the library's cookie prefix out of a value (a callbackUrl holds URLs too). */
const normaliseText = (text, prefix) => {
  let out = String(text).split(ORIGIN).join("<origin>").split(`${prefix}.`).join("<lib>.")
  for (const issuer of idps) out = out.split(issuer).join("<idp>")
  return out
}

function errorParams(raw) {
  if (raw == null) return {}
  try {
    const url = new URL(raw, ORIGIN)
    const out = {}
    if (url.searchParams.has("error")) out.error = url.searchParams.get("error")
    if (url.searchParams.has("code")) out.code = url.searchParams.get("code")
    return out
  } catch {
    return {}
  }
}

/** Keys and value types, recursively; arrays by their first element. */
function shape(value) {
  if (value === null) return "null"
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : []
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shape(value[k])]),
    )
  }
  return typeof value
}

function cookieRoles(response) {
  const roles = []
  for (const line of response.headers.getSetCookie?.() ?? []) {
    const [pair, ...attrs] = line.split(";")
    const name = pair.slice(0, pair.indexOf("="))
    const value = pair.slice(pair.indexOf("=") + 1)
    const role = name
      .replace(/^__(Secure|Host)-/, "")
      .replace(/^(authjs|tessera|next-auth)\./, "")
      .replace(/\.\d+$/, "")
    const cleared = value === "" || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))
    roles.push(`${role}:${cleared ? "cleared" : "set"}`)
  }
  return [...new Set(roles)].sort()
}

/** Session bodies: values too, with `expires` as an offset from the fixed clock. */
function sessionValue(body) {
  if (!body || typeof body !== "object") return body
  const copy = structuredClone(body)
  if (copy.expires) copy.expires = `now+${(RealDate.parse(copy.expires) - clock.now) / 1000}s`
  // A database session's token, when a session callback passes it on: random.
  if (typeof copy.sessionToken === "string") copy.sessionToken = "<random string>"
  return copy
}

function observe(L, result, { kind } = {}) {
  if (result.thrown) return { thrown: result.thrown }
  const { response, body } = result
  const location = response.headers.get("location")
  const observation = {
    status: response.status,
    location: normaliseUrl(location, L.name),
    ...Object.fromEntries(
      Object.entries(errorParams(location)).map(([k, v]) => [`location.${k}`, v]),
    ),
    cookies: cookieRoles(response),
    contentType: (response.headers.get("content-type") ?? "").split(";")[0] || null,
  }
  if (body && typeof body === "object") {
    observation.bodyShape = shape(body)
    if (typeof body.url === "string") {
      observation["body.url"] = normaliseUrl(body.url, L.name)
      for (const [k, v] of Object.entries(errorParams(body.url))) observation[`body.url.${k}`] = v
    }
    if (kind === "session") observation.sessionValue = sessionValue(body)
    if (kind === "providers") observation.providersValue = normaliseProviders(body, L.name)
  } else if (typeof body === "string" && body && !observation.contentType?.includes("html")) {
    observation.bodyText = body.slice(0, 120)
  } else if (body === null) {
    observation.bodyShape = "null"
  }
  return observation
}

function normaliseProviders(body, prefix) {
  return Object.fromEntries(
    Object.entries(body).map(([id, p]) => [
      id,
      Object.fromEntries(
        Object.entries(p).map(([k, v]) => [
          k,
          typeof v === "string" ? normaliseText(v, prefix) : v,
        ]),
      ),
    ]),
  )
}

// ---------------------------------------------------------------------------------------------
// Scenarios. Each is `{ name, config(L), run(browser, record) }`; `record(step, result, opts)`
// keeps one observation; the same steps run for both libraries.
const scenarios = []
const scenario = (name, config, run, { setup } = {}) => scenarios.push({ name, config, run, setup })

const AUTHJS_ERRORS = [
  "Configuration",
  "AccessDenied",
  "Verification",
  "Default",
  "Signin",
  "OAuthSignin",
  "OAuthCallbackError",
  "OAuthCreateAccount",
  "EmailCreateAccount",
  "Callback",
  "OAuthAccountNotLinked",
  "EmailSignin",
  "CredentialsSignin",
  "SessionRequired",
  "MissingCSRF",
  "Nonsense",
]

scenario("unauthenticated GETs", baseConfig, async (b, record) => {
  record("GET providers", await b.send("GET", "/auth/providers"), { kind: "providers" })
  record("GET csrf", await b.send("GET", "/auth/csrf"))
  record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
  record("GET signin", await b.send("GET", "/auth/signin"))
  record("GET signin?callbackUrl=/x", await b.send("GET", "/auth/signin?callbackUrl=%2Fx"))
  record("GET signout", await b.send("GET", "/auth/signout"))
  record("GET verify-request", await b.send("GET", "/auth/verify-request"))
  record("GET error", await b.send("GET", "/auth/error"))
  for (const error of AUTHJS_ERRORS) {
    record(`GET error?error=${error}`, await b.send("GET", `/auth/error?error=${error}`))
    record(`GET signin?error=${error}`, await b.send("GET", `/auth/signin?error=${error}`))
  }
})

scenario("credentials sign-in", baseConfig, async (b, record) => {
  const csrfToken = await b.csrf()
  const post = (fields, headers) =>
    b.send("POST", "/auth/callback/credentials", { form: { csrfToken, ...fields }, headers })
  const rr = { "X-Auth-Return-Redirect": "1" }
  record("wrong password (form)", await post({ username: "ada", password: "no" }))
  record("wrong password (return-redirect)", await post({ username: "ada", password: "no" }, rr))
  record("unknown user", await post({ username: "nobody", password: "right" }))
  record("CredentialsSignin subclass (form)", await post({ username: "locked", password: "x" }))
  record("CredentialsSignin subclass (rr)", await post({ username: "locked", password: "x" }, rr))
  record("authorize throws Error (form)", await post({ username: "boom", password: "x" }))
  record("authorize throws Error (rr)", await post({ username: "boom", password: "x" }, rr))
  record(
    "no CSRF token",
    await b.send("POST", "/auth/callback/credentials", {
      form: { username: "ada", password: "right" },
    }),
  )
  record("bad CSRF token", await post({ username: "ada", password: "right", csrfToken: "x" }))
  record(
    "no CSRF token (rr)",
    await b.send("POST", "/auth/callback/credentials", {
      form: { username: "ada", password: "right" },
      headers: rr,
    }),
  )
  record("success (form)", await post({ username: "ada", password: "right" }))
  record("session after form sign-in", await b.send("GET", "/auth/session"), { kind: "session" })
  record("success (return-redirect)", await post({ username: "ada", password: "right" }, rr))
  record(
    "success callbackUrl=/dashboard",
    await post({ username: "ada", password: "right", callbackUrl: "/dashboard" }),
  )
  record(
    "success callbackUrl same-origin abs",
    await post({ username: "ada", password: "right", callbackUrl: `${ORIGIN}/abs?q=1` }),
  )
  record(
    "success callbackUrl foreign",
    await post({ username: "ada", password: "right", callbackUrl: "https://evil.example/steal" }),
  )
  record(
    "success callbackUrl //evil",
    await post({ username: "ada", password: "right", callbackUrl: "//evil.example/x" }),
  )
})

scenario("routing refusals", baseConfig, async (b, record) => {
  const csrfToken = await b.csrf()
  record("GET unknown action", await b.send("GET", "/auth/nonsense"))
  record("POST unknown action", await b.send("POST", "/auth/nonsense", { form: { csrfToken } }))
  record("GET callback/unknown", await b.send("GET", "/auth/callback/unknown"))
  record(
    "POST signin/unknown",
    await b.send("POST", "/auth/signin/unknown", { form: { csrfToken } }),
  )
  record(
    "POST callback/unknown",
    await b.send("POST", "/auth/callback/unknown", { form: { csrfToken } }),
  )
  record("GET callback/credentials", await b.send("GET", "/auth/callback/credentials"))
  record("POST providers", await b.send("POST", "/auth/providers", { form: { csrfToken } }))
  record("POST csrf", await b.send("POST", "/auth/csrf", { form: { csrfToken } }))
  record("PUT session", await b.send("PUT", "/auth/session"))
  record("DELETE signout", await b.send("DELETE", "/auth/signout"))
  record("POST error", await b.send("POST", "/auth/error", { form: { csrfToken } }))
  record("POST signin (no provider)", await b.send("POST", "/auth/signin", { form: { csrfToken } }))
  record(
    "POST signin/credentials",
    await b.send("POST", "/auth/signin/credentials", { form: { csrfToken } }),
  )
  record("GET signin/credentials", await b.send("GET", "/auth/signin/credentials"))
  record("GET outside basePath", await b.send("GET", "/other/session"))
})

scenario("request parsing", baseConfig, async (b, record) => {
  const csrfToken = await b.csrf()
  const creds = { csrfToken, username: "ada", password: "no" }
  record("GET session/ (trailing slash)", await b.send("GET", "/auth/session/"), {
    kind: "session",
  })
  record("GET providers/", await b.send("GET", "/auth/providers/"))
  record("GET //session (double slash)", await b.send("GET", "/auth//session"))
  record("GET Session (case)", await b.send("GET", "/auth/Session"))
  record("GET session?x=1", await b.send("GET", "/auth/session?x=1"))
  record("HEAD session", await b.send("HEAD", "/auth/session"))
  record("OPTIONS session", await b.send("OPTIONS", "/auth/session"))
  record("GET signin/ (trailing slash)", await b.send("GET", "/auth/signin/"))
  record(
    "POST callback/credentials/ (trailing slash)",
    await b.send("POST", "/auth/callback/credentials/", { form: creds }),
  )
  record(
    "POST credentials JSON body",
    await b.send("POST", "/auth/callback/credentials", { json: creds }),
  )
  record(
    "POST credentials JSON body (rr)",
    await b.send("POST", "/auth/callback/credentials", {
      json: creds,
      headers: { "X-Auth-Return-Redirect": "1" },
    }),
  )
  // A POST with a body and content type of our own (what `send` does not build).
  const postRaw = async (headers, body) => {
    const init = { method: "POST", redirect: "manual", body }
    init.headers = { cookie: b.cookieHeader(), origin: ORIGIN, ...headers }
    const request = new Request(`${ORIGIN}/auth/callback/credentials`, init)
    const response = await b.L.Auth(request, b.config)
    return { response, body: await readBody(response) }
  }
  const encoded = new URLSearchParams(creds).toString()
  const formType = "application/x-www-form-urlencoded; charset=UTF-8"
  record("POST form; charset=UTF-8", await postRaw({ "content-type": formType }, encoded))
  const fd = new FormData()
  for (const [k, v] of Object.entries(creds)) fd.set(k, v)
  record("POST multipart/form-data", await postRaw({}, fd))
  record("POST text/plain", await postRaw({ "content-type": "text/plain" }, encoded))
  record(
    "POST callbackUrl in query",
    await b.send("POST", "/auth/callback/credentials?callbackUrl=%2Fq", {
      form: { ...creds, password: "right" },
    }),
  )
  record(
    "POST redirectTo in body",
    await b.send("POST", "/auth/callback/credentials", {
      form: { ...creds, password: "right", redirectTo: "/rt" },
    }),
  )
  record(
    "POST session update, form body",
    await b.send("POST", "/auth/session", { form: { csrfToken, data: "x" } }),
    { kind: "session" },
  )
  record(
    "POST from a foreign Origin",
    await b.send("POST", "/auth/callback/credentials", {
      form: { ...creds, password: "right" },
      headers: { origin: "https://evil.example" },
    }),
  )
})

scenario(
  "large JWT session (chunked cookie), session.maxAge",
  (L) =>
    baseConfig(L, {
      session: { maxAge: 3600 },
      callbacks: {
        jwt({ token }) {
          token.big = "x".repeat(6000)
          return token
        },
        session({ session, token }) {
          session.bigLength = token.big?.length
          return session
        },
      },
    }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    const result = await b.send("POST", "/auth/callback/credentials", {
      form: { csrfToken, username: "ada", password: "right" },
    })
    record("sign-in", result)
    record("session cookie chunks", {
      synthetic: [...b.jar.keys()]
        .filter((k) => k.includes("session-token"))
        .map((k) => k.replace(/^.*session-token/, "session-token")),
    })
    record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
    record("POST signout", await b.send("POST", "/auth/signout", { form: { csrfToken } }))
    record("session cookie chunks after sign-out", {
      synthetic: [...b.jar.keys()].filter((k) => k.includes("session-token")).length,
    })
  },
)

scenario("sign-out", baseConfig, async (b, record) => {
  const signIn = async () => {
    const csrfToken = await b.csrf()
    await b.send("POST", "/auth/callback/credentials", {
      form: { csrfToken, username: "ada", password: "right" },
    })
    return csrfToken
  }
  const csrfToken = await signIn()
  record("POST signout without CSRF", await b.send("POST", "/auth/signout", { form: {} }))
  record("session after refused sign-out", await b.send("GET", "/auth/session"), {
    kind: "session",
  })
  record(
    "POST signout bad CSRF",
    await b.send("POST", "/auth/signout", { form: { csrfToken: "x" } }),
  )
  record("POST signout with CSRF", await b.send("POST", "/auth/signout", { form: { csrfToken } }))
  record("session after sign-out", await b.send("GET", "/auth/session"), { kind: "session" })
  const again = await signIn()
  record(
    "POST signout with CSRF (rr)",
    await b.send("POST", "/auth/signout", {
      form: { csrfToken: again },
      headers: { "X-Auth-Return-Redirect": "1" },
    }),
  )
  const third = await signIn()
  record(
    "POST signout callbackUrl=/bye",
    await b.send("POST", "/auth/signout", { form: { csrfToken: third, callbackUrl: "/bye" } }),
  )
  record(
    "POST signout signed out",
    await b.send("POST", "/auth/signout", { form: { csrfToken: third } }),
  )
})

const callbacksConfig = (L) =>
  baseConfig(L, {
    callbacks: {
      jwt({ token, user, trigger, session }) {
        if (user) token.role = "admin"
        if (trigger === "update" && session?.name) token.name = session.name
        return token
      },
      session({ session, token }) {
        session.role = token.role
        session.user.id = token.sub
        return session
      },
    },
  })

scenario("session callbacks and update", callbacksConfig, async (b, record) => {
  const csrfToken = await b.csrf()
  await b.send("POST", "/auth/callback/credentials", {
    form: { csrfToken, username: "ada", password: "right" },
  })
  record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
  clock.now += 60_000
  record(
    "POST session update (json)",
    await b.send("POST", "/auth/session", { json: { csrfToken, data: { name: "Countess" } } }),
    { kind: "session" },
  )
  record("GET session after update", await b.send("GET", "/auth/session"), { kind: "session" })
  record(
    "POST session update no CSRF",
    await b.send("POST", "/auth/session", { json: { data: { name: "X" } } }),
    { kind: "session" },
  )
  record(
    "POST session update bad CSRF",
    await b.send("POST", "/auth/session", { json: { csrfToken: "x", data: { name: "X" } } }),
    { kind: "session" },
  )
  record(
    "POST session update (form)",
    await b.send("POST", "/auth/session", { form: { csrfToken } }),
    { kind: "session" },
  )
  record("POST session no body", await b.send("POST", "/auth/session", { json: { csrfToken } }), {
    kind: "session",
  })
  record(
    "GET session garbage cookie",
    await new Browser(b.L, b.config).send("GET", "/auth/session", {
      headers: { cookie: `${b.L.name}.session-token=garbage` },
    }),
    { kind: "session" },
  )
})

// Every callback and event, with the shape of its argument (callback signatures are part of the
// promise): a list per library, compared in order.
const calls = { authjs: [], tessera: [] }
function recordingCallbacks(L) {
  const note = (name, args) =>
    calls[L.name].push(
      `${name} ${JSON.stringify(shape(args))}${args?.trigger ? ` trigger=${args.trigger}` : ""}`,
    )
  return {
    callbacks: {
      signIn(args) {
        note("callbacks.signIn", args)
        return true
      },
      jwt(args) {
        note("callbacks.jwt", args)
        return args.token
      },
      session(args) {
        note("callbacks.session", args)
        return args.session
      },
      redirect(args) {
        note("callbacks.redirect", args)
        return args.url.startsWith("/") ? `${args.baseUrl}${args.url}` : args.url
      },
    },
    events: Object.fromEntries(
      ["signIn", "signOut", "createUser", "updateUser", "linkAccount", "session"].map((name) => [
        name,
        (args) => note(`events.${name}`, args),
      ]),
    ),
  }
}

const callbackScenario = (name, config) =>
  scenario(name, config, async (b, record) => {
    calls[b.L.name].length = 0
    const csrfToken = await b.csrf()
    record("calls: csrf", { synthetic: calls[b.L.name].splice(0) })
    if (b.config.adapter) {
      mailed[b.L.name].length = 0
      await b.send("POST", "/auth/signin/email", { form: { csrfToken, email: "ada@example.com" } })
      record("calls: e-mail sign-in start", { synthetic: calls[b.L.name].splice(0) })
      const link = new URL(mailed[b.L.name][0].url)
      await b.send("GET", `${link.pathname}${link.search}`)
      record("calls: e-mail link", { synthetic: calls[b.L.name].splice(0) })
    } else {
      await b.send("POST", "/auth/callback/credentials", {
        form: { csrfToken, username: "ada", password: "right" },
      })
      record("calls: credentials sign-in", { synthetic: calls[b.L.name].splice(0) })
    }
    await b.send("GET", "/auth/session")
    record("calls: session GET", { synthetic: calls[b.L.name].splice(0) })
    await b.send("POST", "/auth/session", { json: { csrfToken, data: { name: "Countess" } } })
    record("calls: session update", { synthetic: calls[b.L.name].splice(0) })
    await b.send("POST", "/auth/signout", { form: { csrfToken } })
    record("calls: sign-out", { synthetic: calls[b.L.name].splice(0) })
  })

const redirectCalls = { authjs: [], tessera: [] }
scenario(
  "redirect callback inputs",
  (L) =>
    baseConfig(L, {
      callbacks: {
        redirect(params) {
          redirectCalls[L.name].push({
            url: normaliseText(params.url, L.name),
            baseUrl: normaliseText(params.baseUrl, L.name),
          })
          return params.url.startsWith("/") ? `${params.baseUrl}${params.url}` : params.url
        },
      },
    }),
  async (b, record) => {
    redirectCalls[b.L.name].length = 0
    const csrfToken = await b.csrf()
    for (const callbackUrl of [
      "/rel",
      `${ORIGIN}/abs`,
      "https://foreign.example/x",
      "//evil.example/x",
    ]) {
      record(
        `sign-in callbackUrl=${callbackUrl}`,
        await b.send("POST", "/auth/callback/credentials", {
          form: { csrfToken, username: "ada", password: "right", callbackUrl },
        }),
      )
    }
    record(
      `GET signin?callbackUrl=foreign`,
      await new Browser(b.L, b.config).send(
        "GET",
        "/auth/signin?callbackUrl=https%3A%2F%2Fforeign.example%2F",
      ),
    )
    record("redirect callback calls", { synthetic: redirectCalls[b.L.name].slice() })
  },
)

for (const basePath of ["/api/auth", "/auth/"]) {
  scenario(
    `basePath ${basePath}`,
    (L) => baseConfig(L, { basePath }),
    async (b, record) => {
      const base = basePath.replace(/\/$/, "")
      record("GET providers", await b.send("GET", `${base}/providers`), { kind: "providers" })
      const csrfToken = await b.csrf()
      record("GET csrf", { synthetic: typeof csrfToken })
      record(
        "sign-in wrong password",
        await b.send("POST", `${base}/callback/credentials`, {
          form: { csrfToken, username: "ada", password: "no" },
        }),
      )
      record("GET /auth/session (outside)", await b.send("GET", "/auth/session"))
    },
  )
}

scenario(
  "pages.signIn and pages.error",
  (L) => baseConfig(L, { pages: { signIn: "/login", error: "/oops" } }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    record(
      "wrong password",
      await b.send("POST", "/auth/callback/credentials", {
        form: { csrfToken, username: "ada", password: "no" },
      }),
    )
    record(
      "authorize throws",
      await b.send("POST", "/auth/callback/credentials", {
        form: { csrfToken, username: "boom", password: "x" },
      }),
    )
    record("GET signin", await b.send("GET", "/auth/signin?callbackUrl=%2Fx"))
    record("GET error?error=Verification", await b.send("GET", "/auth/error?error=Verification"))
    record("GET signout", await b.send("GET", "/auth/signout"))
  },
)

scenario("callbackUrl remembered between requests", baseConfig, async (b, record) => {
  record(
    "GET signin?callbackUrl=/from-page",
    await b.send("GET", "/auth/signin?callbackUrl=%2Ffrom-page"),
  )
  const csrfToken = await b.csrf()
  record(
    "sign-in without callbackUrl",
    await b.send("POST", "/auth/callback/credentials", {
      form: { csrfToken, username: "ada", password: "right" },
    }),
  )
  record(
    "sign-out without callbackUrl",
    await b.send("POST", "/auth/signout", { form: { csrfToken } }),
  )
  record(
    "sign-in callbackUrl=/second",
    await b.send("POST", "/auth/callback/credentials", {
      form: { csrfToken, username: "ada", password: "right", callbackUrl: "/second" },
    }),
  )
  record(
    "sign-out without callbackUrl (2)",
    await b.send("POST", "/auth/signout", { form: { csrfToken } }),
  )
})

// A configuration Auth.js refuses too: trustHost false with no AUTH_URL (Auth.js: UntrustedHost),
// and no secret. Pages, API routes, browser forms and fetch clients (X-Auth-Return-Redirect).
for (const [name, trustHost, secret] of [
  ["trustHost false, no url", false, SECRET],
  ["missing secret", true, undefined],
]) {
  scenario(
    name,
    (L) => baseConfig(L, { trustHost, secret }),
    async (b, record) => {
      for (const action of [
        "session",
        "csrf",
        "providers",
        "signin",
        "error",
        "callback/credentials",
      ])
        // prettier-ignore
        record(`GET ${action}`, await b.send("GET", `/auth/${action}`))
      const rr = { "X-Auth-Return-Redirect": "1" }
      const form = { username: "ada", password: "right" }
      const post = (path, headers) => b.send("POST", path, { form, headers })
      for (const path of [
        "/auth/callback/credentials",
        "/auth/signin/credentials",
        "/auth/signout",
      ]) {
        // prettier-ignore
        record(`POST ${path}`, await post(path))
        record(`POST ${path} (rr)`, await post(path, rr))
      }
      record("POST session", await b.send("POST", "/auth/session", { json: {} }))
    },
  )
}

// Environment inference: what `AUTH_*` variables give a configuration that names nothing of
// it, as the integrations apply them (`setEnvDefaults(process.env, config)`, in place). Each
// scenario sets its variables for the run of one library (its `setup`) and restores them.
function withEnv(vars, more) {
  return async (L) => {
    const saved = { ...process.env }
    Object.assign(process.env, vars)
    const stopMore = more ? await more(L) : undefined
    return async () => {
      await stopMore?.()
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
      Object.assign(process.env, saved)
    }
  }
}
const envConfig = (L, config) => {
  L.setEnvDefaults(process.env, config)
  return config
}
const OLD_SECRET = "compat-diff-old-secret-compat-diff-old-secret-01234"

scenario(
  "env: AUTH_SECRET, then rotated to AUTH_SECRET_1",
  (L) => envConfig(L, { logger: silentLogger, providers: [credentialsProvider(L)] }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    record(
      "sign-in",
      await b.send("POST", "/auth/callback/credentials", {
        form: { csrfToken, username: "ada", password: "right" },
      }),
    )
    record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
    // The secret rotates: the old one moves to AUTH_SECRET_1.
    process.env.AUTH_SECRET_1 = process.env.AUTH_SECRET
    process.env.AUTH_SECRET = SECRET
    b.config = envConfig(b.L, { logger: silentLogger, providers: [credentialsProvider(b.L)] })
    record("rotated: GET session", await b.send("GET", "/auth/session"), { kind: "session" })
    delete process.env.AUTH_SECRET_1
    b.config = envConfig(b.L, { logger: silentLogger, providers: [credentialsProvider(b.L)] })
    record("old secret dropped: GET session", await b.send("GET", "/auth/session"), {
      kind: "session",
    })
    // An array secret in the configuration: the first encodes, all decode.
    b.config = { ...baseConfig(b.L), secret: [OLD_SECRET, SECRET] }
    record("secret array [other, current]: GET session", await b.send("GET", "/auth/session"), {
      kind: "session",
    })
  },
  { setup: withEnv({ AUTH_SECRET: OLD_SECRET, AUTH_TRUST_HOST: "true" }) },
)

scenario(
  "env: AUTH_URL with a path gives basePath and the origin",
  (L) => envConfig(L, { logger: silentLogger, providers: [L.GitHub] }),
  async (b, record) => {
    record("config.basePath", { synthetic: b.config.basePath ?? null })
    const csrf = await b.send("GET", "/api/auth/csrf")
    record("GET /api/auth/csrf", csrf)
    const csrfToken = csrf.body?.csrfToken
    record("GET /api/auth/providers", await b.send("GET", "/api/auth/providers"), {
      kind: "providers",
    })
    record(
      "POST /api/auth/signin/github",
      await b.send("POST", "/api/auth/signin/github", { form: { csrfToken } }),
    )
    record("GET /auth/session (the default base)", await b.send("GET", "/auth/session"))
  },
  {
    setup: withEnv({
      AUTH_SECRET: SECRET,
      AUTH_URL: `${ORIGIN}/api/auth`,
      AUTH_GITHUB_ID: "gh-env-id",
      AUTH_GITHUB_SECRET: "gh-env-secret",
    }),
  },
)

for (const [label, providers] of [
  ["bare function (providers: [GitHub])", (L) => [L.GitHub]],
  ["factory without options (providers: [GitHub()])", (L) => [L.GitHub()]],
]) {
  scenario(
    `env: AUTH_GITHUB_ID/SECRET, ${label}`,
    (L) => envConfig(L, { logger: silentLogger, providers: providers(L) }),
    async (b, record) => {
      record("GET providers", await b.send("GET", "/auth/providers"), { kind: "providers" })
      const csrfToken = await b.csrf()
      record(
        "POST signin/github",
        await b.send("POST", "/auth/signin/github", { form: { csrfToken } }),
      )
    },
    {
      setup: withEnv({
        AUTH_SECRET: SECRET,
        AUTH_TRUST_HOST: "true",
        AUTH_GITHUB_ID: "gh-env-id",
        AUTH_GITHUB_SECRET: "gh-env-secret",
      }),
    },
  )
}

for (const [label, vars] of [
  ["AUTH_TRUST_HOST=true", { AUTH_TRUST_HOST: "true" }],
  ["AUTH_TRUST_HOST unset, production", { NODE_ENV: "production" }],
  ["AUTH_TRUST_HOST=false", { AUTH_TRUST_HOST: "false", NODE_ENV: "production" }],
  ["AUTH_URL and AUTH_TRUST_HOST=true", { AUTH_TRUST_HOST: "true", AUTH_URL: ORIGIN }],
]) {
  scenario(
    `env: ${label}, a forwarded host`,
    (L) => envConfig(L, { logger: silentLogger, providers: [L.GitHub] }),
    async (b, record) => {
      const forwarded = { "x-forwarded-host": "app.example", "x-forwarded-proto": "https" }
      const csrf = await b.send("GET", "/auth/csrf", { headers: forwarded })
      record("GET csrf (forwarded)", csrf)
      record(
        "POST signin/github (forwarded)",
        await b.send("POST", "/auth/signin/github", {
          form: { csrfToken: csrf.body?.csrfToken ?? "" },
          headers: { ...forwarded, origin: "https://app.example" },
        }),
      )
      const csrfToken = await b.csrf()
      record(
        "POST signin/github (direct)",
        await b.send("POST", "/auth/signin/github", { form: { csrfToken } }),
      )
    },
    {
      setup: withEnv({
        AUTH_SECRET: SECRET,
        AUTH_GITHUB_ID: "gh-env-id",
        AUTH_GITHUB_SECRET: "gh-env-secret",
        ...vars,
      }),
    },
  )
}

scenario(
  "env: AUTH_REDIRECT_PROXY_URL",
  (L) => envConfig(L, { logger: silentLogger, providers: [L.GitHub] }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    const start = await b.send("POST", "/auth/signin/github", { form: { csrfToken } })
    record("POST signin/github", start)
    const location = start.response?.headers.get("location")
    // Auth.js's state is a JWE, Tessera's its own: compared is only that the proxy gets one.
    const state = location && new URL(location).searchParams.get("state")
    record("state", { synthetic: state ? "state present" : "no state" })
  },
  {
    setup: withEnv({
      AUTH_SECRET: SECRET,
      AUTH_TRUST_HOST: "true",
      AUTH_GITHUB_ID: "gh-env-id",
      AUTH_GITHUB_SECRET: "gh-env-secret",
      AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth",
      AUTH_ALLOWED_HOSTS: "localhost:3000",
    }),
  },
)

scenario(
  "env: AUTH_KEYCLOAK_ID/SECRET/ISSUER (live provider)",
  // Tessera needs its opt-in for an http: issuer (no variable gives it): the one option given.
  (L) =>
    envConfig(L, {
      logger: silentLogger,
      providers: [L.Keycloak({ dangerouslyAllowInsecureHttpRequests: true })],
    }),
  async (b, record) => {
    record("GET providers", await b.send("GET", "/auth/providers"), { kind: "providers" })
    const csrfToken = await b.csrf()
    record(
      "POST signin/keycloak",
      await b.send("POST", "/auth/signin/keycloak", { form: { csrfToken } }),
    )
  },
  {
    setup: async (L) => {
      const stopIdp = await startIdp()
      return withEnv({
        AUTH_SECRET: SECRET,
        AUTH_TRUST_HOST: "true",
        AUTH_KEYCLOAK_ID: idp.clientId,
        AUTH_KEYCLOAK_SECRET: idp.clientSecret,
        AUTH_KEYCLOAK_ISSUER: idp.issuer,
      })(L).then((stop) => async () => {
        await stop()
        await stopIdp()
      })
    },
  },
)

const mailed = { authjs: [], tessera: [] }
const emailConfig = (L, adapter = L.memoryAdapter()) =>
  baseConfig(L, {
    adapter,
    providers: [
      {
        id: "email",
        type: "email",
        name: "Email",
        maxAge: 24 * 60 * 60,
        async sendVerificationRequest({ identifier, url }) {
          mailed[L.name].push({ identifier, url })
        },
      },
    ],
  })

scenario(
  "e-mail sign-in, the script's adapter for both",
  (L) => emailConfig(L, scriptAdapterFor(L)),
  async (b, record) => {
    const csrfToken = await b.csrf()
    mailed[b.L.name].length = 0
    record(
      "POST signin/email",
      await b.send("POST", "/auth/signin/email", { form: { csrfToken, email: "ada@example.com" } }),
    )
    const [first] = mailed[b.L.name]
    if (!first) return
    const link = new URL(first.url)
    record("GET callback good token", await b.send("GET", `${link.pathname}${link.search}`))
    record("GET session after link", await b.send("GET", "/auth/session"), { kind: "session" })
  },
)

scenario("e-mail sign-in", emailConfig, async (b, record) => {
  mailed[b.L.name].length = 0
  const csrfToken = await b.csrf()
  record(
    "POST signin/email",
    await b.send("POST", "/auth/signin/email", {
      form: { csrfToken, email: "Ada@Example.com", callbackUrl: "/after" },
    }),
  )
  record(
    "POST signin/email (rr)",
    await b.send("POST", "/auth/signin/email", {
      form: { csrfToken, email: "ada@example.com" },
      headers: { "X-Auth-Return-Redirect": "1" },
    }),
  )
  record(
    "POST signin/email no address",
    await b.send("POST", "/auth/signin/email", { form: { csrfToken } }),
  )
  record(
    "POST signin/email bad address",
    await b.send("POST", "/auth/signin/email", { form: { csrfToken, email: "not-an-address" } }),
  )
  record(
    "POST signin/email no CSRF",
    await b.send("POST", "/auth/signin/email", { form: { email: "ada@example.com" } }),
  )
  const [first] = mailed[b.L.name]
  record("mailed", {
    synthetic: mailed[b.L.name].map((m) => ({
      identifier: m.identifier,
      url: normaliseUrl(m.url, b.L.name),
    })),
  })
  if (!first) return
  const link = new URL(first.url)
  const path = `${link.pathname}${link.search}`
  record("GET callback good token", await b.send("GET", path))
  record("GET session after link", await b.send("GET", "/auth/session"), { kind: "session" })
  record("GET callback reused token", await new Browser(b.L, b.config).send("GET", path))
  const bad = new URL(link)
  bad.searchParams.set("token", "0".repeat(64))
  record(
    "GET callback bad token",
    await new Browser(b.L, b.config).send("GET", `${bad.pathname}${bad.search}`),
  )
  const noEmail = new URL(link)
  noEmail.searchParams.delete("email")
  record(
    "GET callback no email",
    await new Browser(b.L, b.config).send("GET", `${noEmail.pathname}${noEmail.search}`),
  )
  // The second link (the return-redirect request), after its lifetime.
  const second = mailed[b.L.name][1]
  if (second) {
    clock.now += 25 * 60 * 60 * 1000
    const expired = new URL(second.url)
    record(
      "GET callback expired token",
      await new Browser(b.L, b.config).send("GET", `${expired.pathname}${expired.search}`),
    )
    clock.now -= 25 * 60 * 60 * 1000
  }
})

const oauthConfig = (L) =>
  baseConfig(L, {
    providers: [
      L.GitHub({ clientId: "gh-client", clientSecret: "gh-secret" }),
      {
        id: "oidc",
        name: "OIDC",
        type: "oidc",
        issuer: "https://issuer.example",
        clientId: "oidc-client",
        clientSecret: "oidc-secret",
        authorization: {
          url: "https://issuer.example/authorize",
          params: { scope: "openid profile email" },
        },
        token: "https://issuer.example/token",
        userinfo: "https://issuer.example/userinfo",
        jwks_endpoint: "https://issuer.example/jwks",
      },
    ],
  })

callbackScenario("callback and event arguments: credentials, JWT", (L) =>
  baseConfig(L, recordingCallbacks(L)),
)
callbackScenario("callback and event arguments: e-mail, database sessions", (L) => ({
  ...emailConfig(L, scriptAdapterFor(L)),
  ...recordingCallbacks(L),
}))

scenario("OAuth sign-in start", oauthConfig, async (b, record) => {
  record("GET providers", await b.send("GET", "/auth/providers"), { kind: "providers" })
  const csrfToken = await b.csrf()
  for (const id of ["github", "oidc"]) {
    record(
      `POST signin/${id}`,
      await b.send("POST", `/auth/signin/${id}`, { form: { csrfToken, callbackUrl: "/after" } }),
    )
    record(
      `POST signin/${id} (rr)`,
      await b.send("POST", `/auth/signin/${id}`, {
        form: { csrfToken },
        headers: { "X-Auth-Return-Redirect": "1" },
      }),
    )
    record(
      `POST signin/${id}?login_hint=x&prompt=login`,
      await b.send("POST", `/auth/signin/${id}?login_hint=x&prompt=login`, { form: { csrfToken } }),
    )
    record(`POST signin/${id} no CSRF`, await b.send("POST", `/auth/signin/${id}`, { form: {} }))
    record(`GET signin/${id}`, await b.send("GET", `/auth/signin/${id}`))
    record(
      `GET callback/${id} no params`,
      await new Browser(b.L, b.config).send("GET", `/auth/callback/${id}`),
    )
    record(
      `GET callback/${id} error=access_denied`,
      await new Browser(b.L, b.config).send("GET", `/auth/callback/${id}?error=access_denied`),
    )
  }
})

// ---------------------------------------------------------------------------------------------
// The `signIn` callback's answers (true, false, a URL, a throw), through credentials (JWT) and
// e-mail (database sessions), for a browser form and a fetch client (X-Auth-Return-Redirect).
const SIGNIN_ANSWERS = {
  allow: () => true,
  deny: () => false,
  url: () => "/custom-denied",
  foreign: () => "https://foreign.example/denied",
  throws: () => {
    throw new Error("signIn callback failed")
  },
}
const answerOf = (user) => (user?.email ?? "").split("@")[0]
const signInCallbackConfig = (L, kind) => {
  const callbacks = {
    signIn({ user }) {
      return (SIGNIN_ANSWERS[answerOf(user)] ?? SIGNIN_ANSWERS.allow)()
    },
  }
  if (kind === "email") return { ...emailConfig(L, scriptAdapterFor(L)), callbacks }
  return baseConfig(L, {
    callbacks,
    providers: [
      L.Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username }) =>
          username in SIGNIN_ANSWERS
            ? { id: username, name: username, email: `${username}@example.com` }
            : null,
      }),
    ],
  })
}

scenario(
  "signIn callback answers: credentials (JWT)",
  (L) => signInCallbackConfig(L, "credentials"),
  async (b, record) => {
    const csrfToken = await b.csrf()
    for (const answer of Object.keys(SIGNIN_ANSWERS)) {
      for (const rr of [false, true]) {
        const browser = new Browser(b.L, b.config)
        browser.jar = new Map(b.jar)
        record(
          `signIn returns ${answer}${rr ? " (rr)" : ""}`,
          await browser.send("POST", "/auth/callback/credentials", {
            form: { csrfToken, username: answer, password: "x", callbackUrl: "/after" },
            headers: rr ? { "X-Auth-Return-Redirect": "1" } : {},
          }),
        )
        record(`signIn returns ${answer}${rr ? " (rr)" : ""}: then GET session`, {
          synthetic: (await browser.send("GET", "/auth/session")).body === null ? "null" : "set",
        })
      }
    }
  },
)

scenario(
  "signIn callback answers: e-mail (start and link)",
  (L) => signInCallbackConfig(L, "email"),
  async (b, record) => {
    const csrfToken = await b.csrf()
    for (const answer of Object.keys(SIGNIN_ANSWERS)) {
      mailed[b.L.name].length = 0
      record(
        `${answer}: POST signin/email`,
        await b.send("POST", "/auth/signin/email", {
          form: { csrfToken, email: `${answer}@example.com`, callbackUrl: "/after" },
        }),
      )
      record(
        `${answer}: POST signin/email (rr)`,
        await b.send("POST", "/auth/signin/email", {
          form: { csrfToken, email: `${answer}@example.com` },
          headers: { "X-Auth-Return-Redirect": "1" },
        }),
      )
      record(`${answer}: mails sent`, { synthetic: mailed[b.L.name].length })
    }
  },
)

// The error classes an app throws to refuse a credentials sign-in, from `authorize` or from the
// `signIn` callback: which `error` (and `code`) each ends in, for a form and a fetch client.
const THROWN = {
  "authorize AccessDenied": (L) => new L.errors.AccessDenied("banned"),
  "authorize AuthError": (L) => new L.errors.AuthError("custom"),
  "signIn CredentialsSignin": (L) =>
    new (class Blocked extends L.errors.CredentialsSignin {
      code = "blocked"
    })(),
  "signIn AccessDenied": (L) => new L.errors.AccessDenied(),
}
scenario(
  "credentials: error classes thrown by authorize and by the signIn callback",
  (L) =>
    baseConfig(L, {
      callbacks: {
        signIn({ user }) {
          if (user.name.startsWith("signIn ")) throw THROWN[user.name](L)
          return true
        },
      },
      providers: [
        L.Credentials({
          credentials: { username: {} },
          authorize({ username }) {
            const name = username.replace(/ \(rr\)$/, "")
            if (name.startsWith("authorize ")) throw THROWN[name](L)
            return { id: "1", name, email: "ada@example.com" }
          },
        }),
      ],
    }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    for (const username of Object.keys(THROWN)) {
      record(
        username,
        await b.send("POST", "/auth/callback/credentials", { form: { csrfToken, username } }),
      )
      record(
        `${username} (rr)`,
        await b.send("POST", "/auth/callback/credentials", {
          form: { csrfToken, username: `${username} (rr)` },
          headers: { "X-Auth-Return-Redirect": "1" },
        }),
      )
    }
  },
)

// A `jwt` callback that forgets to return after the sign-in (run with --logs to see what each
// library logs about it).
scenario(
  "jwt callback that returns nothing after the sign-in",
  (L) =>
    baseConfig(L, {
      callbacks: {
        jwt({ token, user }) {
          if (user) return token
        },
      },
    }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    record(
      "sign-in",
      await b.send("POST", "/auth/callback/credentials", {
        form: { csrfToken, username: "ada", password: "right" },
      }),
    )
    record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
  },
)

// The `redirect` callback's answer decides every redirecting route's Location.
const REDIRECT_ANSWERS = {
  "as given": ({ url, baseUrl }) => (url.startsWith("/") ? `${baseUrl}${url}` : url),
  "a path": () => "/from-callback",
  "baseUrl only": ({ baseUrl }) => baseUrl,
  "a foreign URL": () => "https://foreign.example/landing",
}
for (const [answer, redirect] of Object.entries(REDIRECT_ANSWERS)) {
  scenario(
    `redirect callback returns ${answer}: every redirecting route`,
    (L) => ({
      ...emailConfig(L, scriptAdapterFor(L)),
      providers: [
        credentialsProvider(L),
        L.GitHub({ clientId: "gh-client", clientSecret: "gh-secret" }),
        emailConfig(L).providers[0],
      ],
      session: { strategy: "jwt" },
      callbacks: { redirect },
    }),
    async (b, record) => {
      const csrfToken = await b.csrf()
      for (const callbackUrl of ["/rel", `${ORIGIN}/abs`, "https://foreign.example/x"]) {
        const form = { csrfToken, callbackUrl }
        const fresh = new Browser(b.L, b.config)
        fresh.jar = new Map(b.jar)
        record(
          `credentials sign-in, callbackUrl=${callbackUrl}`,
          await fresh.send("POST", "/auth/callback/credentials", {
            form: { ...form, username: "ada", password: "right" },
          }),
        )
        record(
          `credentials wrong password, callbackUrl=${callbackUrl}`,
          await fresh.send("POST", "/auth/callback/credentials", {
            form: { ...form, username: "ada", password: "no" },
          }),
        )
        record(
          `sign-out, callbackUrl=${callbackUrl}`,
          await fresh.send("POST", "/auth/signout", { form }),
        )
        record(
          `sign-out (rr), callbackUrl=${callbackUrl}`,
          await fresh.send("POST", "/auth/signout", {
            form,
            headers: { "X-Auth-Return-Redirect": "1" },
          }),
        )
        mailed[b.L.name].length = 0
        record(
          `e-mail sign-in, callbackUrl=${callbackUrl}`,
          await fresh.send("POST", "/auth/signin/email", {
            form: { ...form, email: "ada@example.com" },
          }),
        )
        const [mail] = mailed[b.L.name]
        if (mail) {
          const link = new URL(mail.url)
          record(`e-mail link, callbackUrl=${callbackUrl}: mailed`, {
            synthetic: normaliseUrl(mail.url, b.L.name),
          })
          record(
            `e-mail link, callbackUrl=${callbackUrl}: GET`,
            await fresh.send("GET", `${link.pathname}${link.search}`),
          )
        }
        record(
          `OAuth start (github), callbackUrl=${callbackUrl}`,
          await fresh.send("POST", "/auth/signin/github", { form }),
        )
        record(
          `GET signin?callbackUrl=${callbackUrl}`,
          await new Browser(b.L, b.config).send(
            "GET",
            `/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`,
          ),
        )
      }
    },
  )
}

// Database sessions end to end (e-mail link): the cookie, /session, sign-out deleting the row, the
// old cookie afterwards, and `events.signOut` (also for a browser that was not signed in).
const signOutEvents = { authjs: [], tessera: [] }
const eventsSignOut = (L) => ({
  signOut: (message) => signOutEvents[L.name].push(masked(message, L.name)),
})
for (const strategy of ["database", "jwt"]) {
  scenario(
    `sign-out and events.signOut (${strategy} sessions)`,
    (L) => ({
      ...emailConfig(L, scriptAdapterFor(L)),
      providers: [credentialsProvider(L), emailConfig(L).providers[0]],
      session: { strategy },
      events: eventsSignOut(L),
    }),
    async (b, record) => {
      const take = () => ({ synthetic: signOutEvents[b.L.name].splice(0) })
      const csrfToken = await b.csrf()
      record(
        "signed out: POST signout",
        await b.send("POST", "/auth/signout", { form: { csrfToken } }),
      )
      record("signed out: events.signOut", take())
      const garbage = new Browser(b.L, b.config)
      garbage.jar = new Map(b.jar)
      garbage.jar.set(`${b.L.name}.session-token`, "garbage")
      record(
        "garbage cookie: POST signout",
        await garbage.send("POST", "/auth/signout", { form: { csrfToken } }),
      )
      record("garbage cookie: events.signOut", take())
      mailed[b.L.name].length = 0
      await b.send("POST", "/auth/signin/email", { form: { csrfToken, email: "ada@example.com" } })
      const link = new URL(mailed[b.L.name][0].url)
      record("GET e-mail link", await b.send("GET", `${link.pathname}${link.search}`))
      const cookie = [...b.jar].find(([k]) => k.includes("session-token"))
      record("session cookie", {
        synthetic: cookie && {
          name: cookie[0].replace(`${b.L.name}.`, "<lib>."),
          valueShape:
            strategy === "jwt"
              ? "jwe"
              : /^[0-9a-f-]{36}$/.test(cookie[1])
                ? "uuid"
                : cookie[1].length,
        },
      })
      record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
      const saved = new Map(b.jar)
      record("POST signout", await b.send("POST", "/auth/signout", { form: { csrfToken } }))
      record("events.signOut", take())
      const replay = new Browser(b.L, b.config)
      replay.jar = saved
      record(
        "the old cookie after sign-out: GET session",
        await replay.send("GET", "/auth/session"),
        {
          kind: "session",
        },
      )
    },
  )
}

// The built-in pages replaced by the app's: where each failure lands, with which `error`.
scenario(
  "custom pages: signIn, signOut, error, verifyRequest (e-mail and credentials)",
  (L) => ({
    ...emailConfig(L, scriptAdapterFor(L)),
    providers: [credentialsProvider(L), emailConfig(L).providers[0]],
    pages: {
      signIn: "/login",
      signOut: "/bye",
      error: "/oops",
      verifyRequest: "/check-mail",
      newUser: "/welcome",
    },
  }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    const creds = (username, password, rr) =>
      b.send("POST", "/auth/callback/credentials", {
        form: { csrfToken, username, password },
        headers: rr ? { "X-Auth-Return-Redirect": "1" } : {},
      })
    record("credentials: authorize null", await creds("nobody", "x"))
    record("credentials: CredentialsSignin code=locked", await creds("locked", "x"))
    record("credentials: CredentialsSignin code=locked (rr)", await creds("locked", "x", true))
    record("credentials: authorize throws", await creds("boom", "x"))
    record("credentials: no CSRF", await b.send("POST", "/auth/callback/credentials", { form: {} }))
    mailed[b.L.name].length = 0
    record(
      "e-mail: POST signin/email",
      await b.send("POST", "/auth/signin/email", { form: { csrfToken, email: "ada@example.com" } }),
    )
    record(
      "e-mail: POST signin/email (rr)",
      await b.send("POST", "/auth/signin/email", {
        form: { csrfToken, email: "ada@example.com" },
        headers: { "X-Auth-Return-Redirect": "1" },
      }),
    )
    record(
      "e-mail: bad address",
      await b.send("POST", "/auth/signin/email", { form: { csrfToken, email: "nope" } }),
    )
    const [first, second] = mailed[b.L.name]
    if (first) {
      const link = new URL(first.url)
      const path = `${link.pathname}${link.search}`
      record("e-mail: link", await new Browser(b.L, b.config).send("GET", path))
      record("e-mail: link used again", await new Browser(b.L, b.config).send("GET", path))
    }
    if (second) {
      clock.now += 25 * 60 * 60 * 1000
      const link = new URL(second.url)
      record(
        "e-mail: expired link",
        await new Browser(b.L, b.config).send("GET", `${link.pathname}${link.search}`),
      )
      clock.now -= 25 * 60 * 60 * 1000
    }
    record("GET signin", await b.send("GET", "/auth/signin"))
    record("GET signin?error=OAuthSignin", await b.send("GET", "/auth/signin?error=OAuthSignin"))
    record("GET signout", await b.send("GET", "/auth/signout"))
    record("GET error?error=AccessDenied", await b.send("GET", "/auth/error?error=AccessDenied"))
    record("GET verify-request", await b.send("GET", "/auth/verify-request"))
  },
)

// The e-mail link flow under another base path: the link, the verify-request page, the session.
scenario(
  "basePath /api/auth: e-mail link flow",
  (L) => ({ ...emailConfig(L, scriptAdapterFor(L)), basePath: "/api/auth" }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    mailed[b.L.name].length = 0
    record(
      "POST signin/email",
      await b.send("POST", "/api/auth/signin/email", {
        form: { csrfToken, email: "ada@example.com", callbackUrl: "/after" },
      }),
    )
    record("GET verify-request", await b.send("GET", "/api/auth/verify-request"))
    const [mail] = mailed[b.L.name]
    if (!mail) return
    record("mailed", { synthetic: normaliseUrl(mail.url, b.L.name) })
    const link = new URL(mail.url)
    record("GET link", await b.send("GET", `${link.pathname}${link.search}`))
    record("GET session", await b.send("GET", "/api/auth/session"), { kind: "session" })
    record(
      "GET link again",
      await new Browser(b.L, b.config).send("GET", `${link.pathname}${link.search}`),
    )
    record("GET signin/unknown", await b.send("GET", "/api/auth/signin/unknown"))
  },
)

// Session lifetimes under the fixed clock: `updateAge` passed (the session extended), `maxAge`
// passed (the session gone), for both strategies.
for (const strategy of ["jwt", "database"]) {
  scenario(
    `session lifetime: updateAge and maxAge (${strategy} sessions)`,
    (L) => ({
      ...emailConfig(L, scriptAdapterFor(L)),
      providers: [credentialsProvider(L), emailConfig(L).providers[0]],
      session: { strategy, maxAge: 7 * 86400, updateAge: 86400 },
    }),
    async (b, record) => {
      const csrfToken = await b.csrf()
      mailed[b.L.name].length = 0
      await b.send("POST", "/auth/signin/email", { form: { csrfToken, email: "ada@example.com" } })
      const link = new URL(mailed[b.L.name][0].url)
      await b.send("GET", `${link.pathname}${link.search}`)
      const start = clock.now
      clock.now = start + 3600_000
      record("1 h later: GET session", await b.send("GET", "/auth/session"), { kind: "session" })
      clock.now = start + 2 * 86400_000
      record("2 days later: GET session", await b.send("GET", "/auth/session"), {
        kind: "session",
      })
      clock.now = start + 2 * 86400_000 + 3600_000
      record("2 days 1 h later: GET session", await b.send("GET", "/auth/session"), {
        kind: "session",
      })
      clock.now = start + 20 * 86400_000
      record("20 days later: GET session", await b.send("GET", "/auth/session"), {
        kind: "session",
      })
      record("then: POST signout", await b.send("POST", "/auth/signout", { form: { csrfToken } }))
    },
  )
}

// A short `maxAge` as an idle timeout (JWT): a user active every 40 minutes stays signed in.
scenario(
  "JWT session.maxAge of an hour, a request every 40 minutes",
  (L) => baseConfig(L, { session: { maxAge: 3600 } }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    await b.send("POST", "/auth/callback/credentials", {
      form: { csrfToken, username: "ada", password: "right" },
    })
    const start = clock.now
    for (const minutes of [40, 80, 120, 190]) {
      clock.now = start + minutes * 60_000
      record(`${minutes} min after sign-in: GET session`, await b.send("GET", "/auth/session"), {
        kind: "session",
      })
    }
  },
)

// Callbacks that end or break a session: `jwt` returning null, `jwt`/`session` throwing.
const breaking = { authjs: { mode: "" }, tessera: { mode: "" } }
scenario(
  "jwt callback returns null or throws, session callback throws (JWT)",
  (L) =>
    baseConfig(L, {
      callbacks: {
        jwt({ token }) {
          if (breaking[L.name].mode === "jwt-null") return null
          if (breaking[L.name].mode === "jwt-throws") throw new Error("jwt callback failed")
          return token
        },
        session({ session }) {
          if (breaking[L.name].mode === "session-throws") throw new Error("session failed")
          return session
        },
      },
    }),
  async (b, record) => {
    for (const mode of ["jwt-null", "jwt-throws", "session-throws"]) {
      const browser = new Browser(b.L, b.config)
      const csrfToken = await browser.csrf()
      breaking[b.L.name].mode = ""
      await browser.send("POST", "/auth/callback/credentials", {
        form: { csrfToken, username: "ada", password: "right" },
      })
      breaking[b.L.name].mode = mode
      record(`${mode}: GET session`, await browser.send("GET", "/auth/session"), {
        kind: "session",
      })
      breaking[b.L.name].mode = ""
      record(`${mode}: then GET session`, await browser.send("GET", "/auth/session"), {
        kind: "session",
      })
      breaking[b.L.name].mode = mode
      if (mode === "jwt-null") {
        const again = new Browser(b.L, b.config)
        const token = await again.csrf()
        record(
          `${mode}: credentials sign-in`,
          await again.send("POST", "/auth/callback/credentials", {
            form: { csrfToken: token, username: "ada", password: "right" },
          }),
        )
      }
    }
    breaking[b.L.name].mode = ""
  },
)

// An e-mail provider whose sending fails, or that normalises the address its own way.
const failingMail = { authjs: false, tessera: false }
scenario(
  "e-mail: sendVerificationRequest throws; custom normalizeIdentifier",
  (L) => ({
    ...emailConfig(L, scriptAdapterFor(L)),
    providers: [
      {
        ...emailConfig(L).providers[0],
        normalizeIdentifier: (identifier) => identifier.trim().toLowerCase().replace(/\+.*@/, "@"),
        async sendVerificationRequest({ identifier, url }) {
          if (failingMail[L.name]) throw new Error("SMTP down")
          mailed[L.name].push({ identifier, url })
        },
      },
    ],
  }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    failingMail[b.L.name] = true
    const post = (email, rr) =>
      b.send("POST", "/auth/signin/email", {
        form: { csrfToken, email },
        headers: rr ? { "X-Auth-Return-Redirect": "1" } : {},
      })
    record("sending fails", await post("ada@example.com"))
    record("sending fails (rr)", await post("ada@example.com", true))
    failingMail[b.L.name] = false
    mailed[b.L.name].length = 0
    record("normalizeIdentifier strips +tag", await post("Ada+news@Example.com"))
    record("mailed to", { synthetic: mailed[b.L.name].map((m) => m.identifier) })
  },
)

// `authorize` answers of unusual shape: no `id`, a numeric `id`, extra fields.
scenario(
  "credentials: authorize returns a user without id, with a numeric id, with extra fields",
  (L) =>
    baseConfig(L, {
      providers: [
        L.Credentials({
          credentials: { username: {}, password: {} },
          authorize: ({ username }) =>
            ({
              noid: { name: "No Id", email: "noid@example.com" },
              numeric: { id: 42, name: "Numeric", email: "n@example.com" },
              extra: { id: "7", name: "Extra", email: "e@example.com", role: "admin" },
            })[username] ?? null,
        }),
      ],
      callbacks: {
        jwt({ token, user }) {
          if (user)
            token.seen = { id: user.id ?? "<none>", idType: typeof user.id, role: user.role }
          return token
        },
        session({ session, token }) {
          session.sub = token.sub === undefined ? "<none>" : typeof token.sub
          session.seen = token.seen
          return session
        },
      },
    }),
  async (b, record) => {
    for (const username of ["noid", "numeric", "extra"]) {
      const browser = new Browser(b.L, b.config)
      const csrfToken = await browser.csrf()
      record(
        `${username}: sign-in`,
        await browser.send("POST", "/auth/callback/credentials", {
          form: { csrfToken, username, password: "x" },
        }),
      )
      const result = await browser.send("GET", "/auth/session")
      if (
        result.body?.seen?.id &&
        result.body.seen.idType === "string" &&
        UUID.test(result.body.seen.id)
      )
        result.body.seen.id = "<uuid>"
      record(`${username}: GET session`, result, { kind: "session" })
    }
  },
)

// Cookie options an app may set: its own session cookie name, secure cookies on http.
scenario(
  "cookies: a custom session cookie name; useSecureCookies",
  (L) =>
    baseConfig(L, {
      cookies: {
        sessionToken: {
          name: "my-session",
          options: { httpOnly: true, sameSite: "lax", path: "/", secure: false },
        },
      },
    }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    await b.send("POST", "/auth/callback/credentials", {
      form: { csrfToken, username: "ada", password: "right" },
    })
    record("cookie names", {
      synthetic: [...b.jar.keys()].map((k) => k.replace(b.L.name, "<lib>")).sort(),
    })
    record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
    const secure = new Browser(b.L, { ...baseConfig(b.L), useSecureCookies: true })
    const token = await secure.csrf()
    const signedIn = await secure.send("POST", "/auth/callback/credentials", {
      form: { csrfToken: token, username: "ada", password: "right" },
    })
    record("useSecureCookies on http: sign-in", signedIn)
    record("useSecureCookies on http: cookie names", {
      synthetic: [...secure.jar.keys()].map((k) => k.replace(b.L.name, "<lib>")).sort(),
    })
    record("useSecureCookies on http: GET session", await secure.send("GET", "/auth/session"), {
      kind: "session",
    })
  },
)

// A custom `jwt.encode`/`jwt.decode` (base64url JSON, as some apps do to share tokens).
scenario(
  "jwt: custom encode and decode",
  (L) =>
    baseConfig(L, {
      jwt: {
        encode: async ({ token }) => Buffer.from(JSON.stringify(token)).toString("base64url"),
        decode: async ({ token }) =>
          token ? JSON.parse(Buffer.from(token, "base64url").toString()) : null,
      },
    }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    record(
      "sign-in",
      await b.send("POST", "/auth/callback/credentials", {
        form: { csrfToken, username: "ada", password: "right" },
      }),
    )
    const cookie = [...b.jar].find(([k]) => k.includes("session-token"))
    let claims
    try {
      claims = Object.keys(JSON.parse(Buffer.from(cookie[1], "base64url").toString())).sort()
    } catch {
      claims = "<not the custom encoding>"
    }
    record("the cookie's claims", { synthetic: claims })
    record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
  },
)

// A returning user's e-mail sign-in: what the adapter and the events see the second time.
scenario(
  "e-mail sign-in of a returning user: adapter calls and events",
  (L) => ({
    ...emailConfig(L, recordedAdapter(L)),
    ...valueCallbacks(L),
  }),
  async (b, record) => {
    for (const round of ["first", "second"]) {
      const browser = new Browser(b.L, b.config)
      const csrfToken = await browser.csrf()
      mailed[b.L.name].length = 0
      takeCalls(b.L)
      await browser.send("POST", "/auth/signin/email", {
        form: { csrfToken, email: "ada@example.com" },
      })
      record(`${round}: calls at the start`, { flat: callsFlat(takeCalls(b.L)) })
      const link = new URL(mailed[b.L.name][0].url)
      record(`${round}: GET link`, await browser.send("GET", `${link.pathname}${link.search}`))
      record(`${round}: calls at the link`, { flat: callsFlat(takeCalls(b.L)) })
      clock.now += 60_000
    }
  },
)

// What a fetch client (X-Auth-Return-Redirect: 1) gets from the refusals and the odd routes.
scenario("X-Auth-Return-Redirect on refusals and odd routes", baseConfig, async (b, record) => {
  const csrfToken = await b.csrf()
  const rr = { "X-Auth-Return-Redirect": "1" }
  const post = (path, form = { csrfToken }) => b.send("POST", path, { form, headers: rr })
  record("POST signin (no provider)", await post("/auth/signin"))
  record("POST signin/unknown", await post("/auth/signin/unknown"))
  record("POST callback/unknown", await post("/auth/callback/unknown"))
  record("POST nonsense", await post("/auth/nonsense"))
  record("POST signout signed out", await post("/auth/signout"))
  record("POST signout no CSRF", await post("/auth/signout", {}))
  record("POST session no CSRF (rr)", await post("/auth/session", {}), { kind: "session" })
  record("POST session signed out, with CSRF", await post("/auth/session"), { kind: "session" })
  record(
    "POST session signed out, JSON update",
    await b.send("POST", "/auth/session", { json: { csrfToken, data: { name: "X" } } }),
    { kind: "session" },
  )
})

// ---------------------------------------------------------------------------------------------
// OAuth / OIDC callbacks through to a session, against a live provider on loopback
// (`startOidcProvider` from @tessera/testing: oidc-provider with its development login and
// consent forms, which `completeOidcLogin` fills in). Each library gets a provider of its own,
// started in the scenario's child process, so a code or a login at the provider is never
// shared. What is compared besides the responses: the arguments of every callback and event and
// of the provider's `profile()`, and every call into the adapter, as VALUES, with what is random
// (tokens, ids, nonces, hashes) masked to its type and the times as offsets from the fixed clock
// (the provider runs under the same clock, so `iat`, `exp` and `expires_at` agree to the second).
let idp = null
const IDP_ACCOUNTS = {
  ada: { name: "Ada Lovelace", email: "Ada@Example.com", picture: "https://img.example/ada.png" },
}

async function startIdp() {
  const { startOidcProvider } = await load(testingDist, "index.js")
  idp = await startOidcProvider({
    redirectUris: ["oidc-live", "oauth-live"].map((id) => `${ORIGIN}/auth/callback/${id}`),
    accounts: IDP_ACCOUNTS,
  })
  idps.add(idp.issuer)
  return () => idp.stop()
}

const liveOidc = () => ({
  id: "oidc-live",
  name: "Live OIDC",
  type: "oidc",
  issuer: idp.issuer,
  clientId: idp.clientId,
  clientSecret: idp.clientSecret,
  dangerouslyAllowInsecureHttpRequests: true, // Tessera's opt-in for http: (Auth.js allows it)
})

const liveOAuth = (L) => ({
  id: "oauth-live",
  name: "Live OAuth",
  type: "oauth",
  // Plain OAuth 2: endpoints given, no discovery, the profile from userinfo. `openid` is in the
  // scope only because oidc-provider's userinfo endpoint wants it; the ID Token is not used.
  issuer: idp.issuer,
  clientId: idp.clientId,
  clientSecret: idp.clientSecret,
  authorization: { url: `${idp.issuer}/auth`, params: { scope: "openid profile email" } },
  token: `${idp.issuer}/token`,
  userinfo: `${idp.issuer}/me`,
  checks: ["pkce", "state"],
  profile(profile, tokens) {
    noteValue(L, "provider.profile", { profile, tokens })
    return { id: profile.sub, name: profile.name, email: profile.email, image: profile.picture }
  },
  dangerouslyAllowInsecureHttpRequests: true,
})

const RANDOM_KEYS = new Set(
  "access_token refresh_token id_token sessionToken token nonce at_hash c_hash s_hash jti sid session_state".split(
    " ",
  ),
)
const TIME_KEYS = new Set(["iat", "exp", "nbf", "auth_time", "expires_at"])
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A value with its random parts masked (type kept), times as offsets, origins normalised. A key
 * whose value is `undefined` counts as absent (JSON drops it): `{ session: undefined }` and `{}`
 * read the same to an app.
 */
function masked(value, prefix, key) {
  if (value === undefined || value === null) return value
  if (value instanceof RealDate) return `<Date now+${(value.getTime() - clock.now) / 1000}s>`
  if (Array.isArray(value)) return value.map((v) => masked(v, prefix))
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, masked(value[k], prefix, k)]),
    )
  }
  if (typeof value === "function") return "<function>"
  if (TIME_KEYS.has(key) && typeof value === "number") {
    return `<${typeof value} now+${value - Math.floor(clock.now / 1000)}s>`
  }
  if (RANDOM_KEYS.has(key)) return `<random ${typeof value}>`
  if (typeof value === "string") {
    if (UUID.test(value)) return "<uuid>"
    return normaliseText(value, prefix)
  }
  return value
}

const valueCalls = { authjs: [], tessera: [] }
const noteValue = (L, name, args) => valueCalls[L.name].push({ [name]: masked(args, L.name) })
const takeCalls = (L) => valueCalls[L.name].splice(0)

/** One compared value per leaf (`callbacks.jwt.account.scope`), so a difference names its field. */
function flatten(value, path = "", out = {}) {
  const plain = value && typeof value === "object" && !Array.isArray(value)
  if (!plain || (Object.keys(value).length === 0 && path)) {
    out[path || "value"] = value
    return out
  }
  for (const [k, v] of Object.entries(value)) flatten(v, path ? `${path}.${k}` : k, out)
  return out
}

/** Calls in order (one value), then each call's arguments by leaf, `name#2` for a second one. */
function callsFlat(list) {
  const seen = {}
  const out = { order: list.map((call) => Object.keys(call)[0]) }
  for (const call of list) {
    const [name, args] = Object.entries(call)[0]
    seen[name] = (seen[name] ?? 0) + 1
    flatten(args, seen[name] > 1 ? `${name}#${seen[name]}` : name, out)
  }
  return out
}

/** Every callback and event, recording its arguments as values (see `masked`). */
function valueCallbacks(L) {
  return {
    callbacks: {
      signIn(args) {
        noteValue(L, "callbacks.signIn", args)
        return true
      },
      jwt(args) {
        noteValue(L, "callbacks.jwt", args)
        return args.token
      },
      session(args) {
        noteValue(L, "callbacks.session", args)
        return args.session
      },
      redirect(args) {
        noteValue(L, "callbacks.redirect", args)
        return args.url.startsWith("/") ? `${args.baseUrl}${args.url}` : args.url
      },
    },
    events: Object.fromEntries(
      ["signIn", "signOut", "createUser", "updateUser", "linkAccount", "session"].map((name) => [
        name,
        (args) => noteValue(L, `events.${name}`, args),
      ]),
    ),
  }
}

/** The script's adapter (the same for both), each call noted with its arguments. */
function recordedAdapter(L) {
  const inner = scriptAdapterFor(L)
  return Object.fromEntries(
    Object.entries(inner).map(([name, method]) => [
      name,
      (...args) => {
        // A session token alone (getSessionAndUser, deleteSession) is random: named so it masks.
        const arg =
          typeof args[0] === "string" && /Session/.test(name) ? { sessionToken: args[0] } : args[0]
        noteValue(L, `adapter.${name}`, args.length === 1 ? arg : args)
        return method(...args)
      },
    ]),
  )
}

const liveConfig =
  (providers, extra = {}) =>
  (L) =>
    baseConfig(L, { providers: providers.map((p) => p(L)), ...valueCallbacks(L), ...extra })

/** The provider's redirect back, as the steps compare it: its parameters, random ones masked. */
const callbackShape = (L, back) => ({
  method: back.method,
  url: normaliseUrl(back.url.href, L.name),
  params: [...back.url.searchParams.keys()].sort(),
})

/** Start at the app, log in at the provider (or cancel there): the callback, not yet visited. */
async function throughIdp(b, providerId, { callbackUrl = "/after", cancel = false } = {}) {
  const { completeOidcLogin } = await load(testingDist, "index.js")
  const csrfToken = await b.csrf()
  const start = await b.send("POST", `/auth/signin/${providerId}`, {
    form: { csrfToken, callbackUrl },
  })
  const location = start.response?.headers.get("location")
  if (!location?.startsWith(idp.issuer)) return { start }
  const back = await completeOidcLogin(location, { accountId: "ada", cancel })
  return { start, back, path: `${back.url.pathname}${back.url.search}` }
}

/** A full sign-in: each step's response, and the calls (callbacks, events, adapter) on the way. */
async function liveSignIn(b, record, providerId, label) {
  takeCalls(b.L)
  const { start, back, path } = await throughIdp(b, providerId)
  record(`${label}: POST signin/${providerId}`, start)
  record(`${label}: calls before the provider`, { flat: callsFlat(takeCalls(b.L)) })
  if (!back) return
  record(`${label}: the provider's redirect back`, { flat: callbackShape(b.L, back) })
  record(`${label}: GET callback`, await b.send("GET", path))
  record(`${label}: calls in the callback`, { flat: callsFlat(takeCalls(b.L)) })
  record(`${label}: GET session`, await b.send("GET", "/auth/session"), { kind: "session" })
  record(`${label}: calls in GET session`, { flat: callsFlat(takeCalls(b.L)) })
}

for (const [name, provider] of [
  ["OIDC sign-in through to a session (live provider, JWT)", liveOidc],
  ["plain OAuth 2 sign-in through to a session (live provider, userinfo, JWT)", liveOAuth],
]) {
  scenario(
    name,
    liveConfig([provider]),
    async (b, record) => {
      const id = b.config.providers[0].id
      await liveSignIn(b, record, id, "sign-in")
      const csrfToken = await b.csrf()
      takeCalls(b.L)
      await b.send("POST", "/auth/session", { json: { csrfToken, data: { name: "Countess" } } })
      record("calls: session update", { flat: callsFlat(takeCalls(b.L)) })
      record("POST signout", await b.send("POST", "/auth/signout", { form: { csrfToken } }))
      record("calls: sign-out", { flat: callsFlat(takeCalls(b.L)) })
    },
    { setup: startIdp },
  )
}

scenario(
  "OIDC sign-in with an adapter (live provider, database sessions, first and second sign-in)",
  (L) => liveConfig([liveOidc], { adapter: recordedAdapter(L) })(L),
  async (b, record) => {
    await liveSignIn(b, record, "oidc-live", "first sign-in")
    const csrfToken = await b.csrf()
    takeCalls(b.L)
    record("POST signout", await b.send("POST", "/auth/signout", { form: { csrfToken } }))
    record("calls: sign-out", { flat: callsFlat(takeCalls(b.L)) })
    await liveSignIn(b, record, "oidc-live", "second sign-in")
  },
  { setup: startIdp },
)

// The adapter contract: an Auth.js adapter (the script's, the same for both) sees the same
// methods, in a compatible order, with the same argument shapes (fields, `expires_at` in
// seconds, `emailVerified` and `session.expires` as Dates) in each flow. Only the adapter's
// calls are compared here; the callbacks' and events' are in the scenarios above.
const adapterCalls = (L) =>
  callsFlat(takeCalls(L).filter((call) => Object.keys(call)[0].startsWith("adapter.")))

async function emailSignIn(b, address = "ada@example.com") {
  const csrfToken = await b.csrf()
  mailed[b.L.name].length = 0
  await b.send("POST", "/auth/signin/email", { form: { csrfToken, email: address } })
  const link = mailed[b.L.name][0] && new URL(mailed[b.L.name][0].url)
  return link && b.send("GET", `${link.pathname}${link.search}`)
}

const adapterConfig =
  (extra = {}) =>
  (L) => ({
    ...emailConfig(L, recordedAdapter(L)),
    providers: [emailConfig(L).providers[0], liveOidc(), liveOAuth(L)],
    ...extra,
  })

scenario(
  "adapter contract: database sessions (read, extend, update, expiry, sign-out)",
  adapterConfig({ session: { strategy: "database", maxAge: 7 * 86400, updateAge: 86400 } }),
  async (b, record) => {
    await emailSignIn(b)
    takeCalls(b.L)
    const step = async (label, send) => {
      takeCalls(b.L)
      record(label, await send(), { kind: "session" })
      record(`${label}: adapter calls`, { flat: adapterCalls(b.L) })
    }
    await step("GET session", () => b.send("GET", "/auth/session"))
    clock.now += 2 * 86400_000
    await step("2 days later: GET session", () => b.send("GET", "/auth/session"))
    const csrfToken = await b.csrf()
    await step("POST session (update)", () =>
      b.send("POST", "/auth/session", { json: { csrfToken, data: { name: "Countess" } } }),
    )
    const kept = new Map(b.jar)
    await step("POST signout", () => b.send("POST", "/auth/signout", { form: { csrfToken } }))
    const late = new Browser(b.L, b.config)
    late.jar = kept
    await step("the signed-out cookie: GET session", () => late.send("GET", "/auth/session"))
    await emailSignIn(b)
    clock.now += 8 * 86400_000
    await step("past maxAge: GET session", () => b.send("GET", "/auth/session"))
  },
  { setup: startIdp },
)

scenario(
  "adapter contract: OAuth first sign-in, linked sign-in, account linking (database sessions)",
  adapterConfig(),
  async (b, record) => {
    const oauth = async (browser, label, id) => {
      takeCalls(browser.L)
      const { back, path } = await throughIdp(browser, id)
      if (!back) return record(`${label}: no redirect back`, { synthetic: true })
      takeCalls(browser.L)
      record(`${label}: GET callback`, await browser.send("GET", path))
      record(`${label}: adapter calls`, { flat: adapterCalls(browser.L) })
    }
    // Plain OAuth 2 (userinfo): a first sign-in creates the user and links the account.
    await oauth(b, "OAuth first sign-in", "oauth-live")
    const csrfToken = await b.csrf()
    await b.send("POST", "/auth/signout", { form: { csrfToken } })
    await oauth(b, "OAuth sign-in of the linked account", "oauth-live")
    // Signed in (with that account), a second provider's account is linked to the same user.
    await oauth(b, "signed in: OIDC account linked", "oidc-live")
    const again = new Browser(b.L, b.config)
    await oauth(again, "OIDC sign-in of the account linked while signed in", "oidc-live")
  },
  { setup: startIdp },
)

scenario(
  "adapter contract: a user signed in by e-mail links an OAuth account",
  adapterConfig(),
  async (b, record) => {
    takeCalls(b.L)
    await emailSignIn(b, "someone@example.org")
    record("e-mail sign-up: adapter calls", { flat: adapterCalls(b.L) })
    const { back, path } = await throughIdp(b, "oidc-live")
    if (!back) return
    takeCalls(b.L)
    record("signed in: OIDC callback", await b.send("GET", path))
    record("signed in: OIDC callback: adapter calls", { flat: adapterCalls(b.L) })
    record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
  },
  { setup: startIdp },
)

scenario(
  "adapter contract: allowDangerousEmailAccountLinking, an e-mail user's first OIDC sign-in",
  (L) => {
    const config = adapterConfig()(L)
    config.providers[1] = { ...liveOidc(), allowDangerousEmailAccountLinking: true }
    return config
  },
  async (b, record) => {
    await emailSignIn(b, "ada@example.com")
    const csrfToken = await b.csrf()
    await b.send("POST", "/auth/signout", { form: { csrfToken } })
    const { back, path } = await throughIdp(b, "oidc-live")
    if (!back) return
    takeCalls(b.L)
    record("OIDC callback", await b.send("GET", path))
    record("OIDC callback: adapter calls", { flat: adapterCalls(b.L) })
  },
  { setup: startIdp },
)

scenario(
  "adapter contract: JWT sessions, a user signed in by e-mail links an OIDC account",
  adapterConfig({ session: { strategy: "jwt" } }),
  async (b, record) => {
    await emailSignIn(b, "someone@example.org")
    const { back, path } = await throughIdp(b, "oidc-live")
    if (!back) return
    takeCalls(b.L)
    record("signed in: OIDC callback", await b.send("GET", path))
    record("signed in: OIDC callback: adapter calls", { flat: adapterCalls(b.L) })
    record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
  },
  { setup: startIdp },
)

// Prisma's `delete` (and so `deleteSession` of adapters written on it) throws for a row that is
// not there. A browser can hold the cookie of a session whose row is gone (revoked, purged).
scenario(
  "adapter contract: signing in with a stale session cookie, deleteSession throws for no row",
  (L) => {
    const config = adapterConfig()(L)
    const { deleteSession } = config.adapter
    const sessions = new Set()
    const { createSession } = config.adapter
    config.adapter.createSession = async (session) => {
      sessions.add(session.sessionToken)
      return createSession(session)
    }
    config.adapter.deleteSession = async (token) => {
      if (!sessions.delete(token)) throw new Error("Record to delete does not exist.")
      return deleteSession(token)
    }
    return config
  },
  async (b, record) => {
    const stale = b.L.name === "authjs" ? "3f1c9a52-6a4e-4d0b-9a51-2f0f3c1d7e11" : "ab".repeat(32)
    b.jar.set(`${b.L.name}.session-token`, stale)
    takeCalls(b.L)
    record("e-mail link with a stale session cookie", await emailSignIn(b))
    record("adapter calls", { flat: adapterCalls(b.L) })
    record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
  },
  { setup: startIdp },
)

scenario(
  "adapter contract: JWT sessions with an adapter (OAuth first sign-in, session, sign-out)",
  adapterConfig({ session: { strategy: "jwt" } }),
  async (b, record) => {
    takeCalls(b.L)
    const { back, path } = await throughIdp(b, "oauth-live")
    if (!back) return
    takeCalls(b.L)
    record("GET callback", await b.send("GET", path))
    record("GET callback: adapter calls", { flat: adapterCalls(b.L) })
    record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
    record("GET session: adapter calls", { flat: adapterCalls(b.L) })
    const csrfToken = await b.csrf()
    await b.send("POST", "/auth/signout", { form: { csrfToken } })
    record("sign-out: adapter calls", { flat: adapterCalls(b.L) })
    takeCalls(b.L)
    await emailSignIn(b, "ada@example.com")
    record("e-mail sign-in of the OAuth user: adapter calls", { flat: adapterCalls(b.L) })
  },
  { setup: startIdp },
)

// The refusals. `state` is checked by the plain OAuth 2 provider (`checks: ["pkce", "state"]`);
// Auth.js's OIDC default (`["pkce"]`) sends none, so the state steps use that one.
scenario(
  "OAuth callback errors (live provider): access_denied, state, replay",
  liveConfig([liveOidc, liveOAuth]),
  async (b, record) => {
    const fresh = () => new Browser(b.L, b.config)
    const step = async (label, browser, path) => {
      takeCalls(b.L)
      record(label, await browser.send("GET", path))
      record(`${label}: calls`, { flat: callsFlat(takeCalls(b.L)) })
      record(`${label}: then GET session`, await browser.send("GET", "/auth/session"), {
        kind: "session",
      })
      takeCalls(b.L)
    }
    for (const id of ["oidc-live", "oauth-live"]) {
      const denied = fresh()
      const cancelled = await throughIdp(denied, id, { cancel: true })
      if (cancelled.back) {
        record(`${id} access_denied: redirect back`, { flat: callbackShape(b.L, cancelled.back) })
        await step(`${id} access_denied: GET callback`, denied, cancelled.path)
      }
    }

    const wrong = fresh()
    const forState = await throughIdp(wrong, "oauth-live")
    if (forState.back) {
      const url = new URL(forState.back.url)
      url.searchParams.set("state", `${url.searchParams.get("state")}x`)
      await step("oauth-live wrong state", wrong, `${url.pathname}${url.search}`)
      url.searchParams.delete("state")
      await step("oauth-live missing state param", wrong, `${url.pathname}${url.search}`)
      await step("oauth-live no flow cookies (another browser)", fresh(), forState.path)
      await step("oauth-live after those refusals, the right callback", wrong, forState.path)
    }

    for (const id of ["oidc-live", "oauth-live"]) {
      const replay = fresh()
      const once = await throughIdp(replay, id)
      if (!once.back) continue
      const jarBefore = new Map(replay.jar)
      await step(`${id} replay: first GET callback`, replay, once.path)
      await step(`${id} replay: same browser, same callback again`, replay, once.path)
      const thief = fresh()
      thief.jar = jarBefore
      await step(`${id} replay: the callback and its flow cookies, elsewhere`, thief, once.path)
    }
  },
  { setup: startIdp },
)

// The `signIn` callback's answers in an OAuth callback, and an address already taken by another
// provider's account (live provider, database sessions).
const oauthSignInMode = { authjs: "allow", tessera: "allow" }
scenario(
  "OAuth: signIn callback answers, account linking refused (live provider, database sessions)",
  (L) => ({
    ...liveConfig([liveOidc, liveOAuth], { adapter: recordedAdapter(L) })(L),
    callbacks: {
      signIn() {
        const mode = oauthSignInMode[L.name]
        if (mode === "throws") throw new Error("signIn callback failed")
        if (mode === "url") return "/custom-denied"
        return mode === "allow"
      },
    },
  }),
  async (b, record) => {
    for (const mode of ["deny", "url", "throws"]) {
      oauthSignInMode[b.L.name] = mode
      const browser = new Browser(b.L, b.config)
      const { back, path } = await throughIdp(browser, "oidc-live")
      if (!back) continue
      record(`signIn ${mode}: GET callback`, await browser.send("GET", path))
      record(`signIn ${mode}: then GET session`, await browser.send("GET", "/auth/session"), {
        kind: "session",
      })
    }
    oauthSignInMode[b.L.name] = "allow"
    const first = await throughIdp(b, "oidc-live")
    if (!first.back) return
    record("first provider: GET callback", await b.send("GET", first.path))
    const csrfToken = await b.csrf()
    record("sign-out", await b.send("POST", "/auth/signout", { form: { csrfToken } }))
    takeCalls(b.L)
    const second = await throughIdp(b, "oauth-live")
    if (!second.back) return
    record("same address, other provider: GET callback", await b.send("GET", second.path))
    record("same address, other provider: adapter calls", {
      flat: callsFlat(takeCalls(b.L).filter((c) => Object.keys(c)[0].startsWith("adapter."))),
    })
  },
  { setup: startIdp },
)

// The `error` value and the status of each failure of each route not covered above: unknown
// providers on GET, a POST without its CSRF token on each action (form and return-redirect),
// an OAuth callback without `code` or with the provider's other `error` values, and an e-mail
// sign-in's bad address, bad, missing and reused tokens.
scenario(
  "failures of every route: error values and statuses (live provider, e-mail)",
  adapterConfig(),
  async (b, record) => {
    const rr = { "X-Auth-Return-Redirect": "1" }
    const csrfToken = await b.csrf()
    record("GET signin/unknown", await b.send("GET", "/auth/signin/unknown"))
    record("GET signin/oidc-live", await b.send("GET", "/auth/signin/oidc-live"))
    record("GET signin/email", await b.send("GET", "/auth/signin/email"))
    record("GET callback/email (no token)", await b.send("GET", "/auth/callback/email"))
    for (const [action, form] of [
      ["signin/oidc-live", {}],
      ["signin/email", { email: "ada@example.com" }],
      ["signout", {}],
    ]) {
      record(`POST ${action} without csrfToken`, await b.send("POST", `/auth/${action}`, { form }))
      record(
        `POST ${action} without csrfToken (rr)`,
        await b.send("POST", `/auth/${action}`, { form, headers: rr }),
      )
    }
    record(
      "POST session without csrfToken",
      await b.send("POST", "/auth/session", { json: { data: { name: "X" } } }),
      { kind: "session" },
    )
    for (const email of ["", "not-an-address", "a@b", "Ada@Example.COM "]) {
      mailed[b.L.name].length = 0
      record(
        `POST signin/email "${email}"`,
        await b.send("POST", "/auth/signin/email", { form: { csrfToken, email } }),
      )
      record(`POST signin/email "${email}": mailed`, { synthetic: mailed[b.L.name].length })
    }
    record(
      "POST signin/email (rr), a bad address",
      await b.send("POST", "/auth/signin/email", {
        form: { csrfToken, email: "not-an-address" },
        headers: rr,
      }),
    )

    mailed[b.L.name].length = 0
    await b.send("POST", "/auth/signin/email", { form: { csrfToken, email: "ada@example.com" } })
    const link = mailed[b.L.name][0] && new URL(mailed[b.L.name][0].url)
    if (link) {
      const fresh = new Browser(b.L, b.config)
      const token = link.searchParams.get("token")
      const at = (params) => `${link.pathname}?${new URLSearchParams(params)}`
      const email = link.searchParams.get("email")
      record(
        "GET callback/email, a wrong token",
        await fresh.send("GET", at({ token: `${token}x`, email })),
      )
      record("GET callback/email, no email", await fresh.send("GET", at({ token })))
      record(
        "GET callback/email, another address",
        await fresh.send("GET", at({ token, email: "eve@example.com" })),
      )
      record("GET callback/email, the link", await fresh.send("GET", at({ token, email })))
      record(
        "GET callback/email, the link again",
        await new Browser(b.L, b.config).send("GET", at({ token, email })),
      )
    }

    // JSON bodies (Auth.js reads `application/json` on every POST, as a form).
    for (const [action, json] of [
      ["signin/email", { csrfToken, email: "ada@example.com", callbackUrl: "/j" }],
      ["signin/oidc-live", { csrfToken, callbackUrl: "/j" }],
      ["signin/email", { email: "ada@example.com" }],
      ["signout", { csrfToken, callbackUrl: "/bye" }],
    ]) {
      record(
        `POST ${action} JSON ${Object.keys(json).join(",")}`,
        await b.send("POST", `/auth/${action}`, { json }),
      )
    }

    // Bodies that are not what their content type says.
    for (const [action, type, body] of [
      ["session", "application/json", "{not json"],
      ["signin/oidc-live", "application/json", "{not json"],
      ["signout", "application/json", "[1,2]"],
      ["signin/email", "application/json", "null"],
      ["signin/email", "application/x-www-form-urlencoded", "%E0%A4%A"],
    ]) {
      const request = new Request(`${ORIGIN}/auth/${action}`, {
        method: "POST",
        headers: { cookie: b.cookieHeader(), origin: ORIGIN, "content-type": type },
        body,
      })
      let result
      try {
        const response = await b.L.Auth(request, b.config)
        result = { response, body: await readBody(response) }
      } catch (error) {
        result = { thrown: error?.type ?? error?.name ?? String(error) }
      }
      record(`POST ${action}, ${type} body ${body}`, result)
    }

    for (const [label, change] of [
      ["no code", (url) => url.searchParams.delete("code")],
      ["an empty code", (url) => url.searchParams.set("code", "")],
      ["a wrong code", (url) => url.searchParams.set("code", "wrong")],
      [
        "error=server_error",
        (url) => {
          url.searchParams.delete("code")
          url.searchParams.set("error", "server_error")
          url.searchParams.set("error_description", "the provider failed")
        },
      ],
      [
        "error=invalid_scope, no state",
        (url) => {
          url.search = "?error=invalid_scope"
        },
      ],
    ]) {
      const browser = new Browser(b.L, b.config)
      const { back } = await throughIdp(browser, "oauth-live")
      if (!back) continue
      const url = new URL(back.url)
      change(url)
      record(
        `oauth-live callback, ${label}`,
        await browser.send("GET", `${url.pathname}${url.search}`),
      )
    }
  },
  { setup: startIdp },
)

// Custom pages given with a query string of their own, or on another origin: where each
// failure lands; and the `callbackUrl` of a redirect to a custom page, remembered for its form.
scenario(
  "custom pages with a query string, on another origin; callbackUrl remembered for them",
  (L) =>
    baseConfig(L, {
      pages: {
        signIn: "/login?from=auth",
        signOut: "/logout",
        error: "https://errors.example/oops?app=1",
      },
    }),
  async (b, record) => {
    const csrfToken = await b.csrf()
    const creds = { csrfToken, username: "ada", password: "no" }
    record("wrong password", await b.send("POST", "/auth/callback/credentials", { form: creds }))
    record(
      "wrong password (rr)",
      await b.send("POST", "/auth/callback/credentials", {
        form: creds,
        headers: { "X-Auth-Return-Redirect": "1" },
      }),
    )
    record("GET signin", await b.send("GET", "/auth/signin?callbackUrl=%2Fx"))
    // The custom page's own form, posting no callbackUrl: where the sign-in lands.
    record(
      "then the custom page's form, no callbackUrl",
      await b.send("POST", "/auth/callback/credentials", { form: { ...creds, password: "right" } }),
    )
    record("GET signout", await b.send("GET", "/auth/signout?callbackUrl=%2Fbye"))
    record(
      "then POST signout, no callbackUrl",
      await b.send("POST", "/auth/signout", { form: { csrfToken } }),
    )
    record("GET error?error=Verification", await b.send("GET", "/auth/error?error=Verification"))
    record(
      "authorize throws",
      await b.send("POST", "/auth/callback/credentials", {
        form: { ...creds, username: "boom" },
      }),
    )
  },
)

// `skipCSRFCheck` (the symbol each library exports): what each POST does without a token, and
// whether the token route is still there.
scenario(
  "skipCSRFCheck: every POST without a token",
  (L) => ({
    ...emailConfig(L, scriptAdapterFor(L)),
    providers: [credentialsProvider(L), emailConfig(L).providers[0]],
    session: { strategy: "jwt" },
    skipCSRFCheck: L.skipCSRFCheck,
  }),
  async (b, record) => {
    record("GET csrf", await b.send("GET", "/auth/csrf"))
    record(
      "POST callback/credentials, no token",
      await b.send("POST", "/auth/callback/credentials", {
        form: { username: "ada", password: "right", callbackUrl: "/in" },
      }),
    )
    record("GET session", await b.send("GET", "/auth/session"), { kind: "session" })
    record(
      "POST session update, no token",
      await b.send("POST", "/auth/session", { json: { data: { name: "Countess" } } }),
      { kind: "session" },
    )
    record(
      "POST signout, no token",
      await b.send("POST", "/auth/signout", { form: { callbackUrl: "/out" } }),
    )
    mailed[b.L.name].length = 0
    record(
      "POST signin/email, no token",
      await b.send("POST", "/auth/signin/email", { form: { email: "ada@example.com" } }),
    )
    record("POST signin/email: mailed", { synthetic: mailed[b.L.name].length })
    record(
      "POST callback/credentials, a wrong token",
      await b.send("POST", "/auth/callback/credentials", {
        form: { csrfToken: "x", username: "ada", password: "right" },
      }),
    )
  },
)

// ---------------------------------------------------------------------------------------------
async function runScenario(L, s) {
  const observations = new Map()
  // A scenario's own servers (a provider on loopback), per library: `setup` answers their stop.
  const stop = s.setup ? await s.setup(L) : undefined
  const browser = new Browser(L, s.config(L))
  const record = (step, result, opts) => {
    observations.set(
      step,
      result.flat !== undefined
        ? flatten(result.flat)
        : result.synthetic !== undefined
          ? { value: result.synthetic }
          : observe(L, result, opts),
    )
    if (showLogs && logged.length) observations.get(step).logged = logged.slice()
    logged.length = 0
  }
  const start = clock.now
  try {
    await s.run(browser, record)
  } catch (error) {
    observations.set("<scenario threw>", { error: String(error?.stack ?? error).slice(0, 400) })
  }
  await stop?.()
  clock.now = start
  return observations
}

const showLogs = process.argv.includes("--logs")
const show = (v) => (typeof v === "string" ? v : JSON.stringify(v))

// Auth.js keeps state between configurations in module variables (lib/utils/assert.js: once
// one configuration had an e-mail provider, a later one without an adapter is refused), so each
// scenario runs in a child process of its own, which prints its observations as JSON.
async function child(index) {
  // A rejection nobody awaited yet (Auth.js's send-token awaits a hash between starting
  // `sendVerificationRequest` and awaiting it, so a throwing sender is "unhandled" for a moment
  // and would end the process): noted in the logs instead, so the scenario goes on.
  process.on("unhandledRejection", (error) =>
    logged.push(`unhandledRejection ${String(error?.message ?? error).slice(0, 160)}`),
  )
  const s = scenarios[index]
  const [authjs, tessera] = await loadLibraries()
  const a = await runScenario(authjs, s)
  const t = await runScenario(tessera, s)
  process.stdout.write(JSON.stringify({ authjs: [...a], tessera: [...t] }))
}

async function main() {
  const args = process.argv.slice(2)
  const all = args.includes("--all")
  const filter = args.find((a) => !a.startsWith("--"))
  let differences = 0
  let compared = 0
  for (const [index, s] of scenarios.entries()) {
    if (filter && !s.name.includes(filter)) continue
    const run = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), `--child=${index}`, ...args],
      { encoding: "utf8", maxBuffer: 64 << 20 },
    )
    console.log(`\n## ${s.name}`)
    if (run.status !== 0) {
      console.log(`  the scenario failed to run:\n${run.stderr}`)
      differences++
      continue
    }
    const parsed = JSON.parse(run.stdout)
    const a = new Map(parsed.authjs)
    const t = new Map(parsed.tessera)
    for (const step of new Set([...a.keys(), ...t.keys()])) {
      const oa = a.get(step) ?? { missing: true }
      const ot = t.get(step) ?? { missing: true }
      const lines = []
      for (const key of new Set([...Object.keys(oa), ...Object.keys(ot)])) {
        compared++
        if (show(oa[key]) === show(ot[key])) continue
        lines.push(
          `    ${key}: authjs ${show(oa[key])}\n    ${" ".repeat(key.length)}  tessera ${show(ot[key])}`,
        )
      }
      if (lines.length) {
        differences += lines.length
        console.log(`  DIFF ${step}`)
        console.log(lines.join("\n"))
      } else if (all) console.log(`  same ${step}: ${show(oa)}`)
    }
  }
  console.log(`\n${differences} difference(s) in ${compared} compared values.`)
}

const childArg = process.argv.find((a) => a.startsWith("--child="))
if (childArg) await child(Number(childArg.slice("--child=".length)))
else await main()
