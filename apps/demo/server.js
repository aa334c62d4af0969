/**
 * `npm start`: the whole demo in one process, with nothing to configure.
 *
 * 1. The data folder (default `apps/demo/data/`, git-ignored) holds the SQLite
 *    database and, unless `AUTH_SECRET` is set, a development secret generated
 *    on first start (file mode 0600).
 * 2. A local OpenID provider (from @tessera/testing) starts on another loopback
 *    port, with this app's callback URLs registered: "Sign in with Local IdP".
 * 3. The SvelteKit app built by adapter-node (`build/handler.js`) is served on
 *    `PORT` (default 3000). Importing it runs the app's `init` hook, which
 *    migrates the database and seeds the demo accounts.
 *
 * Environment: PORT, HOST (default 127.0.0.1), IDP_PORT (default: a free port),
 * DEMO_DATA_DIR, AUTH_SECRET, AUTH_VK_ID/AUTH_VK_SECRET, EMAIL_SERVER/EMAIL_FROM.
 * The app reads what this file prepares through the environment (set before
 * the handler is imported): DEMO_DATABASE, DEMO_DEV_DEFAULTS, DEMO_IDP_*.
 */
import { randomBytes } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { startOidcProvider } from "@tessera/testing/oidc-provider"

const here = dirname(fileURLToPath(import.meta.url))
const env = process.env

const dataDir = resolve(env.DEMO_DATA_DIR || join(here, "data"))
const port = parsePort(env.PORT, 3000)
const host = env.HOST || "127.0.0.1"
const handlerFile = join(here, "build", "handler.js")

if (!existsSync(handlerFile)) {
  console.error(
    "The demo is not built: run `npm run build` (or `npm start` from the repository root).",
  )
  process.exit(1)
}

mkdirSync(dataDir, { recursive: true, mode: 0o700 })

const devDefaults = !env.AUTH_SECRET
if (devDefaults) env.AUTH_SECRET = developmentSecret(join(dataDir, "dev-secret"))
env.DEMO_DEV_DEFAULTS = devDefaults ? "1" : "0"
// Mailed links are built from the request's URL, whose host (without ORIGIN)
// is the Host header the client sent: anyone could have a victim mailed a
// working link that points at their own site.
if (!devDefaults && env.EMAIL_SERVER && !env.ORIGIN) {
  console.error(
    "EMAIL_SERVER needs ORIGIN, the public URL of the demo (e.g. https://demo.example): sign-in links must not follow the Host header.",
  )
  process.exit(1)
}
env.DEMO_DATABASE ||= join(dataDir, "demo.db")

// This server speaks plain http to the browser directly, with no proxy in
// front. adapter-node assumes https unless told otherwise, and Tessera (with
// `trustHost`) would believe forwarded headers a client made up, for example
// a host of its choosing in the links it mails. So: drop those, and state the
// protocol. (Behind a TLS proxy, set ORIGIN and AUTH_URL instead.)
if (!env.ORIGIN) env.PROTOCOL_HEADER = "x-forwarded-proto"

// Listen first: the local provider must know the app's port to register its
// callback URLs. Requests that arrive before the app is loaded get a 503.
let app
const server = createServer((req, res) => {
  delete req.headers["x-forwarded-host"]
  delete req.headers["x-forwarded-proto"]
  if (!env.ORIGIN) req.headers["x-forwarded-proto"] = "http"
  if (app) return app(req, res)
  res.writeHead(503, { "content-type": "text/plain", "retry-after": "1" }).end("Starting\n")
})
await listen(server, port, host)
const actualPort = server.address().port
const origin = `http://${host === "127.0.0.1" || host === "0.0.0.0" || host === "::" ? "localhost" : host}:${actualPort}`
// Without ORIGIN, the Host header names the site: only the names this server answers to.
if (!env.ORIGIN && !env.AUTH_URL && !env.AUTH_ALLOWED_HOSTS) {
  env.AUTH_ALLOWED_HOSTS = [
    ...new Set([new URL(origin).host, `localhost:${actualPort}`, `127.0.0.1:${actualPort}`]),
  ].join(",")
}

const callbackPath = "/auth/callback/local-idp"
// The local provider signs anyone in under any name: a development convenience only.
const localIdpEnabled = devDefaults || env.DEMO_LOCAL_IDP === "1"
const idp = localIdpEnabled ? await startLocalIdp() : undefined
if (idp) {
  env.DEMO_IDP_ISSUER = idp.issuer
  env.DEMO_IDP_CLIENT_ID = idp.clientId
  env.DEMO_IDP_CLIENT_SECRET = idp.clientSecret
}
// The demo accounts' passwords are published on the sign-in page and in this repository.
env.DEMO_ACCOUNTS = devDefaults || env.DEMO_ACCOUNTS === "1" ? "1" : "0"

/** The local OpenID provider, with this app's callback URLs registered. */
function startLocalIdp() {
  // Both spellings of the loopback address: the callback URL follows the address the browser used.
  const bases = [
    ...new Set(
      [
        origin,
        `http://localhost:${actualPort}`,
        `http://127.0.0.1:${actualPort}`,
        env.ORIGIN,
      ].filter(Boolean),
    ),
  ]
  // The provider calls the app itself to end sessions (back-channel logout): at the address
  // this server listens on.
  const listening = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host
  return startOidcProvider({
    port: parsePort(env.IDP_PORT, 0),
    clientId: "tessera-demo",
    redirectUris: bases.map((base) => `${base}${callbackPath}`),
    postLogoutRedirectUris: bases.map((base) => `${base}/`),
    backchannelLogoutUri: `${env.ORIGIN ?? `http://${listening}:${actualPort}`}/auth/backchannel-logout/local-idp`,
  })
}

try {
  ;({ handler: app } = await import("./build/handler.js"))
} catch (error) {
  console.error("The app failed to start:", error)
  await shutdown(1)
}

console.log(
  [
    "",
    `  Tessera demo`,
    `  Database   ${shortPath(env.DEMO_DATABASE)}`,
    idp
      ? `  Local IdP  ${idp.issuer} (OpenID provider; any login name, any password)`
      : "  Local IdP  off (set DEMO_LOCAL_IDP=1 to offer it)",
    env.DEMO_ACCOUNTS === "1"
      ? "  Accounts   demo accounts with published passwords (alice, bob)"
      : "  Accounts   no demo accounts (set DEMO_ACCOUNTS=1 to create them)",
    env.AUTH_VK_ID && env.AUTH_VK_SECRET ? "  VK ID      configured" : "",
    devDefaults
      ? [
          "",
          "  ┌─ DEVELOPMENT DEFAULTS ───────────────────────────────────────────",
          `  │ Secret: generated, kept in ${shortPath(join(dataDir, "dev-secret"))} (never commit it).`,
          `  │ E-mail: sign-in links go to the development mailbox, ${origin}/dev/mailbox`,
          "  │ Set AUTH_SECRET (32+ random characters) to run without these.",
          "  └──────────────────────────────────────────────────────────────────",
        ].join("\n")
      : "",
    "",
    `Tessera demo ready on ${origin}`,
  ]
    .filter((line) => line !== "")
    .join("\n"),
)

process.once("SIGINT", () => shutdown(0))
process.once("SIGTERM", () => shutdown(0))

/** The secret in `file`, made on first start: 32 random bytes, readable by this user only. */
function developmentSecret(file) {
  if (existsSync(file)) {
    const secret = readFileSync(file, "utf8").trim()
    if (secret.length < 32) {
      console.error(
        `${file} holds no usable secret (32+ characters): delete it to have a new one generated.`,
      )
      process.exit(1)
    }
    // Someone may have copied it with a looser mode.
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600)
    return secret
  }
  const secret = randomBytes(32).toString("base64url")
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" })
  return secret
}

/** Relative to the working directory when that is shorter. */
function shortPath(path) {
  const rel = relative(process.cwd(), path)
  return rel && !rel.startsWith("..") ? rel : path
}

function parsePort(value, fallback) {
  if (value === undefined || value === "") return fallback
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Not a port number: ${value}`)
    process.exit(1)
  }
  return port
}

function listen(server, port, host) {
  return new Promise((resolve, reject) => {
    server.once("error", (error) => {
      if (error.code === "EADDRINUSE")
        console.error(`Port ${port} is in use: set PORT to another one.`)
      reject(error)
    })
    server.listen(port, host, resolve)
  })
}

async function shutdown(code) {
  server.closeIdleConnections()
  server.close()
  await idp?.stop()
  process.exit(code)
}
