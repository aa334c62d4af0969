// Differential compatibility check of the framework integrations: @tessera/sveltekit against
// @auth/sveltekit 1.11.3, and @tessera/express against @auth/express 0.12.3 (the release built on
// @auth/core 0.41.3), modelled on bench/compat-diff.mjs (which compares the cores' `Auth()`).
// Tessera promises that an Auth.js v5 app moves over by changing `@auth/` to `@tessera/`, so:
//   1. Surface: every runtime export of each entry and subpath, by name and kind (`function`,
//      `class`, `object`, ...), and every provider module of Auth.js's list.
//   2. Behaviour: the same configuration (Credentials + GitHub, each from the library's own
//      provider subpath) driven through both SvelteKit `handle`s and form actions (a minimal
//      RequestEvent with SvelteKit's `event.cookies` semantics, as packages/sveltekit/test/helpers
//      builds it), and through both Express apps over real HTTP on loopback. Compared: status,
//      Location (origin and cookie prefix normalised, random values masked), cookies by role,
//      JSON shapes and session values, what `locals.auth()` / `getSession(req, config)` return.
// It prints the differences and exits 0 either way: docs/migrating-from-authjs.md lists where
// Tessera differs on purpose. Never part of `npm test`, never a dependency: Auth.js is imported
// by absolute path.
//
// Run (from the repository root, after `npm run build`):
//   AUTHJS_DIR=/path/to/bench/.baseline/authjs \
//   AUTHJS_EXPRESS_DIR=/tmp/authjs-express \
//   node bench/compat-diff-integrations.mjs [section-or-step-filter] [--all]
// AUTHJS_DIR's node_modules holds @auth/sveltekit 1.11.3 (and @auth/core 0.41.3);
// AUTHJS_EXPRESS_DIR's holds @auth/express 0.12.3 and express, installed outside the repository:
//   npm install --prefix /tmp/authjs-express @auth/express@0.12.3 express
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { createServer } from "node:http"
import { register } from "node:module"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = fileURLToPath(new URL("../", import.meta.url))
const authjsDir = process.env.AUTHJS_DIR ?? join(root, "bench", ".baseline", "authjs")
const authjsKit = join(authjsDir, "node_modules", "@auth", "sveltekit")
const expressDir = process.env.AUTHJS_EXPRESS_DIR ?? "/tmp/authjs-express"
const authjsExpress = join(expressDir, "node_modules", "@auth", "express")
for (const [dir, what] of [
  [authjsKit, "@auth/sveltekit 1.11.3 (AUTHJS_DIR)"],
  [authjsExpress, "@auth/express 0.12.3 (AUTHJS_EXPRESS_DIR)"],
]) {
  if (!existsSync(dir)) {
    console.error(`No ${what} at ${dir}.`)
    process.exit(2)
  }
}
const tesseraKit = join(root, "packages", "sveltekit")
const tesseraExpress = join(root, "packages", "express")

// Auth.js reads `process.env` in setEnvDefaults, Tessera in Auth() too: keep the environment out
// of the comparison; the scenarios set what they need on both sides alike.
for (const name of Object.keys(process.env)) if (/^AUTH_/.test(name)) delete process.env[name]
process.env.NODE_ENV = "production"

// ---------------------------------------------------------------------------------------------
// SvelteKit's virtual modules, outside SvelteKit: one `env` object for both libraries (the
// scenarios change it), `building` false, `base` "". @auth/sveltekit's own imports are written
// for a bundler (`./env` without an extension, `@sveltejs/kit` it does not depend on): they are
// resolved as Vite would, bare names from this repository's node_modules.
globalThis.__compatKitEnv = {}
const hooks = `
const virtual = {
  "$env/dynamic/private": "export const env = globalThis.__compatKitEnv",
  "$env/static/private": "export {}",
  "$app/environment": "export const dev = false, building = false, browser = false, version = 'compat'",
  "$app/paths": "export const base = process.env.COMPAT_KIT_BASE ?? '', assets = ''; export const resolve = (p) => p",
}
const repo = ${JSON.stringify(pathToFileURL(join(root, "package.json")).href)}
export async function resolve(specifier, context, next) {
  if (virtual[specifier] !== undefined)
    return { url: "data:text/javascript," + encodeURIComponent(virtual[specifier]), shortCircuit: true }
  try {
    return await next(specifier, context)
  } catch (error) {
    if (error?.code !== "ERR_MODULE_NOT_FOUND" && error?.code !== "ERR_UNSUPPORTED_DIR_IMPORT") throw error
    if (specifier.startsWith(".")) return next(specifier + ".js", context)
    return next(specifier, { ...context, parentURL: repo })
  }
}`
register("data:text/javascript," + encodeURIComponent(hooks))

const load = (dir, file) => import(pathToFileURL(join(dir, file)).href)

// ---------------------------------------------------------------------------------------------
// Output: observations per step, compared key by key.
const results = { authjs: new Map(), tessera: new Map() }
const record = (lib, step, observation) => results[lib].set(step, observation)
const show = (v) => (typeof v === "string" ? v : JSON.stringify(v))

const ORIGIN = "http://localhost:3000"
const SECRET = "compat-diff-secret-compat-diff-secret-0123456789"
const silentLogger = { error() {}, warn() {}, debug() {} }

function normaliseUrl(raw, lib, origin = ORIGIN) {
  if (raw == null) return null
  let url
  try {
    url = new URL(raw, origin)
  } catch {
    return `<unparsable ${raw}>`
  }
  const head = url.origin === origin ? "<origin>" : url.origin
  const params = [...url.searchParams]
    .map(([k, v]) => [
      k,
      ["state", "nonce", "code_challenge", "csrfToken"].includes(k)
        ? "<random>"
        : v.split(origin).join("<origin>").split(`${lib}.`).join("<lib>."),
    ])
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
  return `${head}${url.pathname}${params.length ? `?${params.join("&")}` : ""}`
}

function shape(value) {
  if (value === null) return "null"
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : []
  if (typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shape(value[k])]),
    )
  return typeof value
}

/** Cookie names to roles (`session-token`, `csrf-token`, ...) with set/cleared. */
function roles(setCookies) {
  const out = []
  for (const line of setCookies) {
    const [pair, ...attrs] = line.split(";")
    const name = pair.slice(0, pair.indexOf("=")).trim()
    const value = pair.slice(pair.indexOf("=") + 1).trim()
    const role = name
      .replace(/^__(Secure|Host)-/, "")
      .replace(/^(authjs|tessera)\./, "")
      .replace(/\.\d+$/, "")
    const cleared = value === "" || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))
    out.push(`${role}:${cleared ? "cleared" : "set"}`)
  }
  return [...new Set(out)].sort()
}

/** Session values: `expires` reduced to its type, user fields kept. */
function sessionValue(value) {
  if (!value || typeof value !== "object") return value
  const copy = structuredClone(value)
  if (typeof copy.expires === "string") copy.expires = "<date string>"
  return copy
}

async function observeResponse(lib, response, origin = ORIGIN) {
  const type = (response.headers.get("content-type") ?? "").split(";")[0] || null
  const text = await response.text()
  const observation = {
    status: response.status,
    location: normaliseUrl(response.headers.get("location"), lib),
    cookies: roles(response.headers.getSetCookie()),
    contentType: type,
  }
  if (type?.includes("json")) {
    try {
      const body = JSON.parse(text)
      observation.bodyShape = shape(body)
      if (body && typeof body.url === "string")
        observation["body.url"] = normaliseUrl(body.url, lib, origin).split(origin).join("<origin>")
    } catch {
      observation.bodyText = text.slice(0, 80)
    }
  }
  return observation
}

// ---------------------------------------------------------------------------------------------
// 1. Surface
function kind(value) {
  if (typeof value === "function")
    return /^class\b/.test(Function.prototype.toString.call(value)) ? "class" : "function"
  if (value === null) return "null"
  return typeof value
}

async function exportsOf(dir, file) {
  try {
    const mod = await load(dir, file)
    return Object.fromEntries(
      Object.keys(mod)
        .sort()
        .map((k) => [k, kind(mod[k])]),
    )
  } catch (error) {
    return { "<import failed>": String(error?.message ?? error).slice(0, 160) }
  }
}

/** Auth.js's names missing or of another kind in Tessera; Tessera's extras listed apart. */
function compareExports(step, a, t) {
  const missing = Object.keys(a).filter((k) => !(k in t))
  const otherKind = Object.keys(a)
    .filter((k) => k in t && a[k] !== t[k])
    .map((k) => `${k}: ${a[k]} vs ${t[k]}`)
  record("authjs", step, { missing: [], otherKind: [] })
  record("tessera", step, { missing, otherKind })
  if (all) console.log(`  extras in Tessera ${step}: ${Object.keys(t).filter((k) => !(k in a))}`)
}

async function surface() {
  const kitDist = join(tesseraKit, "dist")
  const authKitDist = join(authjsKit, "dist")
  for (const [sub, file] of [
    [".", "index.js"],
    ["/client", "client.js"],
    ["/webauthn", "webauthn.js"],
  ])
    compareExports(
      `surface sveltekit ${sub}`,
      await exportsOf(authKitDist, file),
      await exportsOf(kitDist, file),
    )
  compareExports(
    "surface express .",
    await exportsOf(authjsExpress, "index.js"),
    await exportsOf(join(tesseraExpress, "dist"), "index.js"),
  )
  for (const [name, authDir, tessDir] of [
    ["sveltekit", join(authKitDist, "providers"), join(kitDist, "providers")],
    ["express", join(authjsExpress, "providers"), join(tesseraExpress, "dist", "providers")],
  ]) {
    const ids = readdirSync(authDir)
      .filter((f) => f.endsWith(".js") && f !== "index.js") // index: types only in Auth.js
      .map((f) => f.slice(0, -3))
    const missing = []
    const differing = []
    for (const id of ids) {
      if (!existsSync(join(tessDir, `${id}.js`))) {
        missing.push(id)
        continue
      }
      const a = await exportsOf(authDir, `${id}.js`)
      const t = await exportsOf(tessDir, `${id}.js`)
      for (const k of Object.keys(a))
        if (a[k] !== t[k]) differing.push(`${id}.${k}: ${a[k]} vs ${t[k] ?? "missing"}`)
    }
    record("authjs", `surface ${name} /providers/*`, {
      modules: ids.length,
      missing: [],
      differing: [],
    })
    record("tessera", `surface ${name} /providers/*`, { modules: ids.length, missing, differing })
  }
}

// ---------------------------------------------------------------------------------------------
// 2a. SvelteKit: a RequestEvent with SvelteKit's `event.cookies` (defaults httpOnly, sameSite
// lax, secure except on http://localhost), as packages/sveltekit/test/helpers/kit.ts builds it.
class CookieJar {
  constructor(header, url) {
    this.initial = Object.fromEntries(
      (header ?? "")
        .split(";")
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => [p.slice(0, p.indexOf("=")), decodeURIComponent(p.slice(p.indexOf("=") + 1))]),
    )
    this.set_ = []
    this.secure = !(url.hostname === "localhost" && url.protocol === "http:")
  }
  get(name) {
    const latest = this.set_.findLast((c) => c.name === name)
    if (latest) return latest.options.maxAge === 0 ? undefined : latest.value
    return this.initial[name]
  }
  getAll() {
    const all = { ...this.initial }
    for (const c of this.set_) all[c.name] = c.value
    return Object.entries(all).map(([name, value]) => ({ name, value }))
  }
  set(name, value, options) {
    if (typeof options?.path !== "string") throw new Error("You must specify a `path`")
    this.set_.push({
      name,
      value,
      options: { httpOnly: true, sameSite: "lax", secure: this.secure, ...options },
    })
  }
  delete(name, options) {
    this.set(name, "", { ...options, maxAge: 0 })
  }
  serialize(name, value) {
    return `${name}=${encodeURIComponent(value)}`
  }
  setCookieHeaders() {
    return this.set_.map(
      (c) =>
        `${c.name}=${encodeURIComponent(c.value)}; Path=${c.options.path}${c.options.maxAge === 0 ? "; Max-Age=0" : ""}`,
    )
  }
}

function createEvent(request) {
  const url = new URL(request.url)
  return {
    request,
    url,
    cookies: new CookieJar(request.headers.get("cookie"), url),
    locals: {},
    params: {},
    route: { id: null },
    platform: undefined,
    isDataRequest: false,
    isSubRequest: false,
    fetch: globalThis.fetch,
    getClientAddress: () => "127.0.0.1",
    setHeaders: () => {},
  }
}

class KitBrowser {
  constructor() {
    this.jar = new Map()
  }
  receive(lines) {
    for (const line of lines) {
      const [pair, ...attrs] = line.split(";")
      const name = pair.slice(0, pair.indexOf("=")).trim()
      const value = decodeURIComponent(pair.slice(pair.indexOf("=") + 1).trim())
      if (value === "" || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.jar.delete(name)
      else this.jar.set(name, value)
    }
  }
  request(url, init = {}) {
    const headers = new Headers(init.headers)
    // A server's Request has the Host header a `new Request()` lacks (Auth.js builds URLs on it).
    headers.set("host", new URL(url).host)
    if (this.jar.size)
      headers.set(
        "cookie",
        [...this.jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; "),
      )
    return new Request(url, { ...init, headers })
  }
}

const form = (fields, extra = {}) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, ...extra },
  body: new URLSearchParams(fields),
})

async function kitLibraries() {
  const dist = join(tesseraKit, "dist")
  const authDist = join(authjsKit, "dist")
  const kit = await import(
    pathToFileURL(join(root, "node_modules", "@sveltejs", "kit", "src", "exports", "index.js")).href
  )
  return [
    {
      name: "authjs",
      ...(await load(authDist, "index.js")),
      Credentials: (await load(authDist, "providers/credentials.js")).default,
      GitHub: (await load(authDist, "providers/github.js")).default,
      kit,
    },
    {
      name: "tessera",
      ...(await load(dist, "index.js")),
      Credentials: (await load(dist, "providers/credentials.js")).default,
      GitHub: (await load(dist, "providers/github.js")).default,
      kit,
    },
  ]
}

const USERS = { ada: { id: "1", name: "Ada Lovelace", email: "ada@example.com" } }
function providers(L) {
  return [
    L.Credentials({
      credentials: {
        username: { label: "User" },
        password: { label: "Password", type: "password" },
      },
      async authorize({ username, password }) {
        const user = USERS[username]
        return user && password === "right" ? user : null
      },
    }),
    L.GitHub({ clientId: "gh-client", clientSecret: "gh-secret" }),
  ]
}
const kitConfig = (L, overrides = {}) => ({
  secret: SECRET,
  trustHost: true,
  logger: silentLogger,
  providers: providers(L),
  ...overrides,
})

/** Runs `handle`; the app's own page answers 200 and reports what `locals.auth()` gave. */
async function runHandle(L, handle, browser, url, init, { auth = false } = {}) {
  const event = createEvent(browser.request(url, init))
  let resolved = false
  let session
  let response
  try {
    response = await handle({
      event,
      resolve: async (e) => {
        resolved = true
        if (auth) {
          try {
            session = sessionValue(await e.locals.auth())
          } catch (error) {
            session = { thrown: error?.type ?? error?.name ?? String(error) }
          }
        }
        return new Response("page")
      },
    })
  } catch (error) {
    return { thrown: error?.type ?? error?.name ?? String(error) }
  }
  browser.receive(response.headers.getSetCookie())
  browser.receive(event.cookies.setCookieHeaders())
  const observation = await observeResponse(L.name, response)
  observation.resolved = resolved
  if (auth) {
    observation["locals.auth()"] = session
    observation.eventCookies = roles(event.cookies.setCookieHeaders())
  }
  return observation
}

/** Runs a form action: the redirect (status, target) or the error it threw, cookies it set. */
async function runAction(L, action, browser, path, fields, headers = {}) {
  const event = createEvent(browser.request(`${ORIGIN}${path}`, form(fields, headers)))
  const observation = {}
  try {
    const value = await action(event)
    observation.returned = value === undefined ? "undefined" : shape(value)
  } catch (thrown) {
    // By shape: @auth/sveltekit may load another copy of @sveltejs/kit than this script's.
    if (thrown?.constructor?.name === "Redirect" || L.kit.isRedirect(thrown)) {
      observation.redirect = thrown.status
      observation.location = normaliseUrl(thrown.location, L.name)
    } else if (thrown?.constructor?.name === "HttpError" || L.kit.isHttpError(thrown))
      observation.httpError = thrown.status
    else
      observation.thrown = `${thrown?.name}${thrown?.type ? ` ${thrown.type}` : ""}${thrown?.code ? ` code=${thrown.code}` : ""}`
  }
  observation.cookies = roles(event.cookies.setCookieHeaders())
  browser.receive(event.cookies.setCookieHeaders())
  return observation
}

async function kitScenarios(L) {
  const env = globalThis.__compatKitEnv
  const step = (name, o) => record(L.name, `sveltekit ${name}`, o)
  for (const k of Object.keys(env)) delete env[k]

  // Default config: routes under /auth.
  {
    const { handle, signIn, signOut } = L.SvelteKitAuth(kitConfig(L))
    const b = new KitBrowser()
    step("GET /auth/csrf", await runHandle(L, handle, b, `${ORIGIN}/auth/csrf`))
    const csrfToken = [...b.jar].find(([k]) => /csrf-token$/.test(k))?.[1]?.split("|")[0]
    step("GET /auth/providers", await runHandle(L, handle, b, `${ORIGIN}/auth/providers`))
    step("GET /auth/session signed out", await runHandle(L, handle, b, `${ORIGIN}/auth/session`))
    step(
      "GET / signed out (locals.auth)",
      await runHandle(L, handle, b, `${ORIGIN}/`, {}, { auth: true }),
    )
    step("GET /auth/signin (page)", await runHandle(L, handle, b, `${ORIGIN}/auth/signin`))
    step(
      "GET /auth/unknown-action (passes on)",
      await runHandle(L, handle, b, `${ORIGIN}/auth/foo`),
    )
    step(
      "POST /auth/signin/github with csrf",
      await runHandle(
        L,
        handle,
        b,
        `${ORIGIN}/auth/signin/github`,
        form({ csrfToken, callbackUrl: "/after" }),
      ),
    )
    step(
      "POST /auth/signin/github without csrf token",
      await runHandle(
        L,
        handle,
        b,
        `${ORIGIN}/auth/signin/github`,
        form({ callbackUrl: "/after" }),
      ),
    )
    step(
      "POST /auth/callback/credentials wrong password",
      await runHandle(
        L,
        handle,
        b,
        `${ORIGIN}/auth/callback/credentials`,
        form({ csrfToken, username: "ada", password: "wrong" }),
      ),
    )
    step(
      "POST /auth/callback/credentials right",
      await runHandle(
        L,
        handle,
        b,
        `${ORIGIN}/auth/callback/credentials`,
        form({ csrfToken, username: "ada", password: "right", callbackUrl: "/after" }),
      ),
    )
    step(
      "GET / signed in (locals.auth)",
      await runHandle(L, handle, b, `${ORIGIN}/`, {}, { auth: true }),
    )
    step("GET /auth/session signed in", await runHandle(L, handle, b, `${ORIGIN}/auth/session`))
    step(
      "POST /auth/signout with csrf",
      await runHandle(
        L,
        handle,
        b,
        `${ORIGIN}/auth/signout`,
        form({ csrfToken, callbackUrl: "/bye" }),
      ),
    )

    // Form actions.
    const a = new KitBrowser()
    step(
      "action signIn credentials + redirectTo",
      await runAction(L, signIn, a, "/signin", {
        providerId: "credentials",
        username: "ada",
        password: "right",
        redirectTo: "/dashboard",
      }),
    )
    step(
      "action: then locals.auth",
      await runHandle(L, handle, a, `${ORIGIN}/`, {}, { auth: true }),
    )
    step(
      "action signOut redirectTo",
      await runAction(L, signOut, a, "/signout", { redirectTo: "/bye" }),
    )
    step(
      "action: after signOut locals.auth",
      await runHandle(L, handle, a, `${ORIGIN}/`, {}, { auth: true }),
    )
    step(
      "action signIn credentials wrong password",
      await runAction(L, signIn, new KitBrowser(), "/signin", {
        providerId: "credentials",
        username: "ada",
        password: "wrong",
        redirectTo: "/dashboard",
      }),
    )
    step(
      "action signIn credentials no redirectTo, Referer",
      await runAction(
        L,
        signIn,
        new KitBrowser(),
        "/signin",
        { providerId: "credentials", username: "ada", password: "right" },
        { referer: `${ORIGIN}/from-here` },
      ),
    )
    step(
      "action signIn github + authorizationParams-prompt",
      await runAction(L, signIn, new KitBrowser(), "/signin", {
        providerId: "github",
        redirectTo: "/dashboard",
        "authorizationParams-prompt": "login",
      }),
    )
    step(
      "action signIn no providerId",
      await runAction(L, signIn, new KitBrowser(), "/signin", { redirectTo: "/dashboard" }),
    )
    step(
      "action signIn unknown provider",
      await runAction(L, signIn, new KitBrowser(), "/signin", {
        providerId: "nope",
        redirectTo: "/d",
      }),
    )
    step(
      "action signOut signed out, no redirectTo",
      await runAction(L, signOut, new KitBrowser(), "/signout", {}),
    )
  }

  // config.basePath: Auth.js's SvelteKit hook always uses `${base}/auth`.
  {
    const { handle } = L.SvelteKitAuth(kitConfig(L, { basePath: "/custom" }))
    const b = new KitBrowser()
    step(
      "basePath /custom: GET /custom/csrf",
      await runHandle(L, handle, b, `${ORIGIN}/custom/csrf`),
    )
    step("basePath /custom: GET /auth/csrf", await runHandle(L, handle, b, `${ORIGIN}/auth/csrf`))
  }
  // AUTH_URL with a path.
  {
    env.AUTH_URL = `${ORIGIN}/api/auth`
    const { handle, signIn } = L.SvelteKitAuth(kitConfig(L))
    const b = new KitBrowser()
    step(
      "AUTH_URL /api/auth: GET /api/auth/csrf",
      await runHandle(L, handle, b, `${ORIGIN}/api/auth/csrf`),
    )
    step("AUTH_URL /api/auth: GET /auth/csrf", await runHandle(L, handle, b, `${ORIGIN}/auth/csrf`))
    step(
      "AUTH_URL /api/auth: locals.auth",
      await runHandle(L, handle, b, `${ORIGIN}/`, {}, { auth: true }),
    )
    step(
      "AUTH_URL /api/auth: action signIn github",
      await runAction(L, signIn, new KitBrowser(), "/signin", {
        providerId: "github",
        redirectTo: "/d",
      }),
    )
    delete env.AUTH_URL
  }
  // Misconfigured: no secret anywhere.
  {
    const { handle, signIn } = L.SvelteKitAuth(kitConfig(L, { secret: undefined }))
    const b = new KitBrowser()
    step("no secret: GET /auth/session", await runHandle(L, handle, b, `${ORIGIN}/auth/session`))
    step("no secret: GET /auth/signin", await runHandle(L, handle, b, `${ORIGIN}/auth/signin`))
    step("no secret: locals.auth", await runHandle(L, handle, b, `${ORIGIN}/`, {}, { auth: true }))
    step(
      "no secret: action signIn credentials",
      await runAction(L, signIn, new KitBrowser(), "/signin", {
        providerId: "credentials",
        username: "ada",
        password: "right",
      }),
    )
  }
  // The lazy form: config from the event.
  {
    const { handle } = L.SvelteKitAuth(async () => kitConfig(L))
    step(
      "lazy config: GET /auth/providers",
      await runHandle(L, handle, new KitBrowser(), `${ORIGIN}/auth/providers`),
    )
  }
  // Database sessions with an Auth.js-style adapter, signed in by an e-mail link (last: Auth.js
  // remembers an e-mail provider between configurations, and would refuse later ones).
  {
    const mailed = []
    const { handle, signIn, signOut } = L.SvelteKitAuth(
      kitConfig(L, {
        adapter: scriptAdapter(),
        providers: [
          {
            id: "email",
            type: "email",
            name: "Email",
            sendVerificationRequest: async ({ url }) => void mailed.push(url),
          },
        ],
      }),
    )
    const b = new KitBrowser()
    step(
      "database: action signIn email",
      await runAction(L, signIn, b, "/signin", {
        providerId: "email",
        email: "ada@example.com",
        redirectTo: "/dashboard",
      }),
    )
    const link = mailed[0] && new URL(mailed[0])
    if (link) {
      step(
        "database: GET the e-mail link",
        await runHandle(L, handle, b, `${ORIGIN}${link.pathname}${link.search}`),
      )
    }
    step(
      "database: signed in, locals.auth",
      await runHandle(L, handle, b, `${ORIGIN}/`, {}, { auth: true }),
    )
    step("database: GET /auth/session", await runHandle(L, handle, b, `${ORIGIN}/auth/session`))
    step(
      "database: action signOut",
      await runAction(L, signOut, b, "/signout", { redirectTo: "/bye" }),
    )
    step(
      "database: after signOut, locals.auth",
      await runHandle(L, handle, b, `${ORIGIN}/`, {}, { auth: true }),
    )
  }
}

/** A minimal Auth.js-style adapter over Maps, the same for both libraries. */
function scriptAdapter() {
  const users = new Map()
  const sessions = new Map()
  const tokens = new Map()
  let next = 0
  const copy = (v) => (v ? { ...v } : null)
  return {
    async createUser(user) {
      const created = { ...user, id: `user-${++next}` }
      users.set(created.id, created)
      return { ...created }
    },
    getUser: async (id) => copy(users.get(id)),
    getUserByEmail: async (email) => copy([...users.values()].find((u) => u.email === email)),
    getUserByAccount: async () => null,
    async updateUser(user) {
      users.set(user.id, { ...users.get(user.id), ...user })
      return copy(users.get(user.id))
    },
    linkAccount: async (account) => account,
    async createSession(session) {
      sessions.set(session.sessionToken, { ...session })
      return { ...session }
    },
    async getSessionAndUser(token) {
      const session = sessions.get(token)
      return session ? { session: { ...session }, user: copy(users.get(session.userId)) } : null
    },
    async updateSession(session) {
      sessions.set(session.sessionToken, { ...sessions.get(session.sessionToken), ...session })
      return copy(sessions.get(session.sessionToken))
    },
    async deleteSession(token) {
      const session = sessions.get(token)
      sessions.delete(token)
      return copy(session)
    },
    async createVerificationToken(token) {
      tokens.set(`${token.identifier}:${token.token}`, { ...token })
      return token
    },
    async useVerificationToken({ identifier, token }) {
      const found = tokens.get(`${identifier}:${token}`) ?? null
      tokens.delete(`${identifier}:${token}`)
      return found
    },
  }
}

/** An app with SvelteKit's `paths.base` (`/base`): run in a child whose `$app/paths` says so. */
async function kitBaseScenarios(L) {
  const step = (name, o) => record(L.name, `sveltekit paths.base /base: ${name}`, o)
  const { handle, signIn } = L.SvelteKitAuth(kitConfig(L))
  const b = new KitBrowser()
  step("GET /base/auth/csrf", await runHandle(L, handle, b, `${ORIGIN}/base/auth/csrf`))
  step("GET /auth/csrf", await runHandle(L, handle, new KitBrowser(), `${ORIGIN}/auth/csrf`))
  step(
    "action signIn github",
    await runAction(L, signIn, new KitBrowser(), "/base/signin", {
      providerId: "github",
      redirectTo: "/base/d",
    }),
  )
  step(
    "action signIn no providerId",
    await runAction(L, signIn, new KitBrowser(), "/base/signin", { redirectTo: "/base/d" }),
  )
  const a = new KitBrowser()
  step(
    "action signIn credentials",
    await runAction(L, signIn, a, "/base/signin", {
      providerId: "credentials",
      username: "ada",
      password: "right",
    }),
  )
  step("then locals.auth", await runHandle(L, handle, a, `${ORIGIN}/base/`, {}, { auth: true }))
}

// ---------------------------------------------------------------------------------------------
// 2b. Express over HTTP on loopback.
async function expressLibraries() {
  const requireFrom = (dir) =>
    import(pathToFileURL(join(dir, "node_modules", "express", "index.js")).href)
  return [
    {
      name: "authjs",
      ...(await load(authjsExpress, "index.js")),
      Credentials: (await load(authjsExpress, "providers/credentials.js")).default,
      GitHub: (await load(authjsExpress, "providers/github.js")).default,
      express: (await requireFrom(expressDir)).default,
    },
    {
      name: "tessera",
      ...(await load(join(tesseraExpress, "dist"), "index.js")),
      Credentials: (await load(join(tesseraExpress, "dist"), "providers/credentials.js")).default,
      GitHub: (await load(join(tesseraExpress, "dist"), "providers/github.js")).default,
      express: (await requireFrom(root)).default,
    },
  ]
}

async function listen(app) {
  const server = createServer(app)
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, port: server.address().port }
}

class HttpBrowser {
  constructor(base) {
    this.base = base
    this.jar = new Map()
  }
  async send(path, init = {}) {
    const headers = new Headers(init.headers)
    if (this.jar.size) headers.set("cookie", [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "))
    const response = await fetch(`${this.base}${path}`, { ...init, headers, redirect: "manual" })
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";")
      const name = pair.slice(0, pair.indexOf("="))
      const value = pair.slice(pair.indexOf("=") + 1)
      if (value === "" || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.jar.delete(name)
      else this.jar.set(name, value)
    }
    return response
  }
}

async function expressScenarios(L) {
  const step = (name, o) => record(L.name, `express ${name}`, o)
  const observe = async (response, base) => {
    const o = await observeResponse(L.name, response, base)
    // The app's origin is a random loopback port: normalise it too.
    if (response.headers.get("location"))
      o.location = normaliseUrl(response.headers.get("location"), L.name, base)
    return o
  }
  const app = (mount, config, { sessionRoute = true } = {}) => {
    const a = L.express()
    a.set("trust proxy", true)
    a.use(mount, L.ExpressAuth(config))
    if (sessionRoute)
      a.get("/me", async (req, res) => {
        try {
          res.json({ session: sessionValue(await L.getSession(req, config)) })
        } catch (error) {
          res.status(599).json({ thrown: error?.type ?? error?.name })
        }
      })
    a.use((req, res) => res.status(404).json({ app404: req.path }))
    a.use((err, req, res, _next) =>
      res.status(598).json({ appError: err?.type ?? err?.name ?? "?" }),
    )
    return a
  }

  for (const [label, mount, env] of [
    ["/auth", "/auth", {}],
    ["/api/auth + AUTH_URL", "/api/auth", { AUTH_URL: "/api/auth" }],
  ]) {
    const config = {
      secret: SECRET,
      trustHost: true,
      logger: silentLogger,
      providers: providers(L),
    }
    const { server, port } = await listen(app(mount, config))
    const base = `http://127.0.0.1:${port}`
    if (env.AUTH_URL) process.env.AUTH_URL = `${base}${env.AUTH_URL}`
    const b = new HttpBrowser(base)
    const p = (path) => `${mount}${path}`
    const posting = (fields) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams(fields),
    })
    try {
      step(`${label}: GET csrf`, await observe(await b.send(p("/csrf")), base))
      const csrfToken = [...b.jar].find(([k]) => /csrf-token$/.test(k))?.[1]
      const token = decodeURIComponent(csrfToken ?? "").split("|")[0]
      step(`${label}: GET providers`, await observe(await b.send(p("/providers")), base))
      step(`${label}: GET session signed out`, await observe(await b.send(p("/session")), base))
      step(`${label}: getSession signed out`, await observe(await b.send("/me"), base))
      step(`${label}: GET signin page`, await observe(await b.send(p("/signin")), base))
      step(`${label}: GET unknown action`, await observe(await b.send(p("/foo")), base))
      step(
        `${label}: POST signin/github`,
        await observe(
          await b.send(p("/signin/github"), posting({ csrfToken: token, callbackUrl: "/after" })),
          base,
        ),
      )
      step(
        `${label}: POST signin/github json`,
        await observe(
          await b.send(p("/signin/github"), {
            method: "POST",
            headers: {
              "content-type": "application/json",
              origin: base,
              "x-auth-return-redirect": "1",
            },
            body: JSON.stringify({ csrfToken: token, callbackUrl: "/after" }),
          }),
          base,
        ),
      )
      step(
        `${label}: POST callback/credentials wrong`,
        await observe(
          await b.send(
            p("/callback/credentials"),
            posting({ csrfToken: token, username: "ada", password: "no" }),
          ),
          base,
        ),
      )
      step(
        `${label}: POST callback/credentials right`,
        await observe(
          await b.send(
            p("/callback/credentials"),
            posting({
              csrfToken: token,
              username: "ada",
              password: "right",
              callbackUrl: "/after",
            }),
          ),
          base,
        ),
      )
      const me = await b.send("/me")
      const meBody = await me.clone().json()
      step(`${label}: getSession signed in`, { ...(await observe(me, base)), value: meBody })
      const s = await b.send(p("/session"))
      const sBody = await s.clone().json()
      step(`${label}: GET session signed in`, {
        ...(await observe(s, base)),
        value: sessionValue(sBody),
      })
      step(
        `${label}: POST signout`,
        await observe(
          await b.send(p("/signout"), posting({ csrfToken: token, callbackUrl: "/bye" })),
          base,
        ),
      )
      step(`${label}: getSession after signout`, await observe(await b.send("/me"), base))
    } finally {
      delete process.env.AUTH_URL
      server.close()
    }
  }

  // Misconfigured: no secret.
  {
    const config = { trustHost: true, logger: silentLogger, providers: providers(L) }
    const { server, port } = await listen(app("/auth", config))
    const base = `http://127.0.0.1:${port}`
    const b = new HttpBrowser(base)
    try {
      step("no secret: GET session", await observe(await b.send("/auth/session"), base))
      step("no secret: GET signin", await observe(await b.send("/auth/signin"), base))
      step("no secret: getSession", await observe(await b.send("/me"), base))
    } finally {
      server.close()
    }
  }
  // Misconfigured: no trustHost and no AUTH_URL.
  {
    const config = { secret: SECRET, logger: silentLogger, providers: providers(L) }
    const { server, port } = await listen(app("/auth", config))
    const base = `http://127.0.0.1:${port}`
    const b = new HttpBrowser(base)
    try {
      step("untrusted host: GET session", await observe(await b.send("/auth/session"), base))
      step("untrusted host: getSession", await observe(await b.send("/me"), base))
    } finally {
      server.close()
    }
  }
}

// ---------------------------------------------------------------------------------------------
const args = process.argv.slice(2)
const all = args.includes("--all")
const filter = args.find((a) => !a.startsWith("--"))

if (process.env.COMPAT_KIT_BASE) {
  const [kitA, kitT] = await kitLibraries()
  await kitBaseScenarios(kitA)
  await kitBaseScenarios(kitT)
  process.stdout.write(
    JSON.stringify({ authjs: [...results.authjs], tessera: [...results.tessera] }),
  )
  process.exit(0)
}
// `$app/paths` is fixed once loaded: the `paths.base` scenarios run in a child of their own.
const baseRun = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
  encoding: "utf8",
  env: { ...process.env, COMPAT_KIT_BASE: "/base" },
  maxBuffer: 64 << 20,
})
if (baseRun.status === 0) {
  const parsed = JSON.parse(baseRun.stdout)
  for (const lib of ["authjs", "tessera"]) for (const [k, v] of parsed[lib]) record(lib, k, v)
} else
  record("tessera", "sveltekit paths.base: the child failed", {
    stderr: baseRun.stderr.slice(0, 400),
  })

await surface()
const [kitA, kitT] = await kitLibraries()
await kitScenarios(kitA)
await kitScenarios(kitT)
const [exA, exT] = await expressLibraries()
await expressScenarios(exA)
await expressScenarios(exT)

let differences = 0
let compared = 0
for (const step of new Set([...results.authjs.keys(), ...results.tessera.keys()])) {
  if (filter && !step.includes(filter)) continue
  const a = results.authjs.get(step) ?? { missing: true }
  const t = results.tessera.get(step) ?? { missing: true }
  const lines = []
  for (const key of new Set([...Object.keys(a), ...Object.keys(t)])) {
    compared++
    if (show(a[key]) === show(t[key])) continue
    lines.push(
      `    ${key}: authjs ${show(a[key])}\n    ${" ".repeat(key.length)}  tessera ${show(t[key])}`,
    )
  }
  if (lines.length) {
    differences += lines.length
    console.log(`DIFF ${step}\n${lines.join("\n")}`)
  } else if (all) console.log(`same ${step}: ${show(a)}`)
}
console.log(`\n${differences} difference(s) in ${compared} compared values.`)
process.exit(0)
