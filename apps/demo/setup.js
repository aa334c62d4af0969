/**
 * What the demo needs around the SvelteKit app, shared by `npm start`
 * (server.js, the built app) and `npm run dev` (dev.js, Vite's dev server):
 *
 * 1. `prepareEnvironment()`: the data folder (default `apps/demo/data/`,
 *    git-ignored) with the SQLite database and, unless `AUTH_SECRET` is set, a
 *    development secret generated on first start (file mode 0600).
 * 2. `startServices(origin)`, once the app's port is known: the hosts Tessera
 *    accepts, and a local OpenID provider (from @tessera/testing) on another
 *    loopback port with this app's callback URLs registered.
 * 3. `banner()`: what the terminal shows once the demo is ready.
 *
 * The app reads what these prepare through the environment, which must be set
 * before the app is loaded: DEMO_DATABASE, DEMO_DEV_DEFAULTS, DEMO_ACCOUNTS,
 * DEMO_IDP_*, AUTH_SECRET, AUTH_ALLOWED_HOSTS.
 */
import { randomBytes } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { startOidcProvider } from "@tessera/testing/oidc-provider"

const here = dirname(fileURLToPath(import.meta.url))
const env = process.env

/**
 * The data folder and the secret; exits with one line on a setting that cannot work.
 * @returns {{ dataDir: string, devDefaults: boolean }}
 */
export function prepareEnvironment() {
  const dataDir = resolve(env.DEMO_DATA_DIR || join(here, "data"))
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })

  // Development defaults publish the demo passwords, offer an "any name" identity provider and
  // a mailbox page anyone can read: never on a server told it is in production.
  if (!env.AUTH_SECRET && env.NODE_ENV === "production") {
    fail(
      "NODE_ENV=production needs AUTH_SECRET (32+ random characters): without it the demo runs on development defaults (published demo passwords, an any-name identity provider, an open mailbox).",
    )
  }
  const devDefaults = !env.AUTH_SECRET
  if (devDefaults) env.AUTH_SECRET = developmentSecret(join(dataDir, "dev-secret"))
  env.DEMO_DEV_DEFAULTS = devDefaults ? "1" : "0"
  // Mailed links are built from the request's URL, whose host (without ORIGIN)
  // is the Host header the client sent: anyone could have a victim mailed a
  // working link that points at their own site.
  if (!devDefaults && env.EMAIL_SERVER && !env.ORIGIN) {
    fail(
      "EMAIL_SERVER needs ORIGIN, the public URL of the demo (e.g. https://demo.example): sign-in links must not follow the Host header.",
    )
  }
  env.DEMO_DATABASE ||= join(dataDir, "demo.db")
  // The demo accounts' passwords are published on the sign-in page and in this repository.
  env.DEMO_ACCOUNTS = devDefaults || env.DEMO_ACCOUNTS === "1" ? "1" : "0"
  return { dataDir, devDefaults }
}

/** The origin a browser uses for a server listening on `host:port`. */
export function originOf(host, port) {
  const name = host === "127.0.0.1" || host === "0.0.0.0" || host === "::" ? "localhost" : host
  return `http://${name}:${port}`
}

/**
 * Once the app's port is known: the hosts Tessera accepts and the local OpenID provider.
 * @param {string} origin the app's origin, `http://localhost:<port>`
 * @param {boolean} devDefaults
 * @param {string} [host] the address the app listens on (the provider calls it for back-channel logout)
 */
export async function startServices(origin, devDefaults, host = "127.0.0.1") {
  const { port } = new URL(origin)
  // Without ORIGIN, the Host header names the site: only the names this server answers to.
  if (!env.ORIGIN && !env.AUTH_URL && !env.AUTH_ALLOWED_HOSTS) {
    env.AUTH_ALLOWED_HOSTS = [
      ...new Set([new URL(origin).host, `localhost:${port}`, `127.0.0.1:${port}`]),
    ].join(",")
  }
  // The local provider signs anyone in under any name: a development convenience only.
  const localIdpEnabled = devDefaults || env.DEMO_LOCAL_IDP === "1"
  const idp = localIdpEnabled ? await startLocalIdp(origin, port, host) : undefined
  if (idp) {
    env.DEMO_IDP_ISSUER = idp.issuer
    env.DEMO_IDP_CLIENT_ID = idp.clientId
    env.DEMO_IDP_CLIENT_SECRET = idp.clientSecret
  }
  return { idp }
}

/**
 * The local OpenID provider, with this app's callback URLs registered, and its
 * logout URLs: where to come back after signing out there (RP-initiated logout)
 * and where the provider ends the app's sessions (back-channel logout).
 */
async function startLocalIdp(origin, port, host) {
  const callbackPath = "/auth/callback/local-idp"
  const idpPort = parsePort(env.IDP_PORT, 0, "IDP_PORT")
  // Both spellings of the loopback address: the callback URL follows the address the browser used.
  const bases = [
    ...new Set(
      [origin, `http://localhost:${port}`, `http://127.0.0.1:${port}`, env.ORIGIN].filter(Boolean),
    ),
  ]
  // The provider calls the app itself to end sessions: at the address the app listens on.
  const listening = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host
  try {
    return await startOidcProvider({
      port: idpPort,
      clientId: "tessera-demo",
      redirectUris: bases.map((base) => `${base}${callbackPath}`),
      postLogoutRedirectUris: bases.map((base) => `${base}/`),
      backchannelLogoutUri: `${env.ORIGIN ?? `http://${listening}:${port}`}/auth/backchannel-logout/local-idp`,
    })
  } catch (error) {
    if (error?.code === "EADDRINUSE")
      fail(`Port ${idpPort} (IDP_PORT, the local OpenID provider) is in use: set another one.`)
    throw error
  }
}

/**
 * What the terminal shows once the demo is ready; the last line is `Tessera demo ready on <origin>`.
 * @param {{ origin: string, dataDir: string, devDefaults: boolean, idp?: { issuer: string }, mode?: string }} info
 */
export function banner({ origin, dataDir, devDefaults, idp, mode }) {
  return [
    "",
    `  Tessera demo${mode ? ` (${mode})` : ""}`,
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
    .join("\n")
}

/** The secret in `file`, made on first start: 32 random bytes, readable by this user only. */
function developmentSecret(file) {
  if (existsSync(file)) {
    const secret = readFileSync(file, "utf8").trim()
    if (secret.length < 32)
      fail(
        `${file} holds no usable secret (32+ characters): delete it to have a new one generated.`,
      )
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

/** A port number from a setting, `fallback` when unset; exits on anything else. */
export function parsePort(value, fallback, name = "PORT") {
  if (value === undefined || value === "") return fallback
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`${name} is not a port number: ${value}`)
  return port
}

/** The one line a user needs for a setting that cannot work: no stack, it is not a bug. */
export function fail(message) {
  console.error(message)
  process.exit(1)
}

/** The line saying why a server could not listen on `host:port`. */
export function listenFailure(error, host, port) {
  if (error.code === "EADDRINUSE")
    return `Port ${port} is in use: set PORT to another one (PORT=0 picks a free one).`
  if (error.code === "EACCES")
    return `Not allowed to listen on port ${port}: set PORT to 1024 or above.`
  if (error.code === "EADDRNOTAVAIL")
    return `${host} is not an address of this machine: set HOST to another one.`
  return `Cannot listen on ${host}:${port}: ${error.message}`
}
