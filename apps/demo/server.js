/**
 * `npm start`: the whole demo in one process, with nothing to configure.
 *
 * The data folder, the secret and the local OpenID provider come from
 * setup.js (shared with `npm run dev`); then the SvelteKit app built by
 * adapter-node (`build/handler.js`) is served on `PORT` (default 3000).
 * Importing it runs the app's `init` hook, which migrates the database and
 * seeds the demo accounts.
 *
 * Environment: PORT, HOST (default 127.0.0.1), IDP_PORT (default: a free port),
 * DEMO_DATA_DIR, AUTH_SECRET, AUTH_VK_ID/AUTH_VK_SECRET, EMAIL_SERVER/EMAIL_FROM.
 */
import { existsSync } from "node:fs"
import { createServer } from "node:http"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import {
  banner,
  fail,
  listenFailure,
  originOf,
  parsePort,
  prepareEnvironment,
  startServices,
} from "./setup.js"

const here = dirname(fileURLToPath(import.meta.url))
const env = process.env

const port = parsePort(env.PORT, 3000)
const host = env.HOST || "127.0.0.1"

if (!existsSync(join(here, "build", "handler.js")))
  fail("The demo is not built: run `npm start` from the repository root (it builds first).")

const { dataDir, devDefaults } = prepareEnvironment()

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
  if (isBackchannelLogout(req)) req.headers.origin = env.ORIGIN ?? `http://${req.headers.host}`
  // Never framed (see `noFraming` in src/hooks.server.ts), here for what that hook never sees:
  // prerendered pages and static files. A response's own headers replace these.
  res.setHeader("X-Frame-Options", "DENY")
  res.setHeader("Content-Security-Policy", "frame-ancestors 'none'")
  if (app) return app(req, res)
  res.writeHead(503, { "content-type": "text/plain", "retry-after": "1" }).end("Starting\n")
})

/**
 * An OpenID provider's back-channel logout: a form POST from its server, with no
 * `Origin`. SvelteKit refuses every form POST whose `Origin` is not the app's
 * before any hook runs, so without one the logout token would never reach
 * Tessera. That route needs no such check (the token's signature is the proof);
 * a browser's cross-site form sends its own `Origin` and is still refused.
 */
function isBackchannelLogout(req) {
  return (
    req.method === "POST" &&
    req.headers.origin === undefined &&
    /^\/auth\/backchannel-logout\/[^/?]+(\?|$)/.test(req.url ?? "")
  )
}
await new Promise((resolve) => {
  server.once("error", (error) => fail(listenFailure(error, host, port)))
  server.listen(port, host, resolve)
})
const origin = originOf(host, server.address().port)
const { idp } = await startServices(origin, devDefaults, host)

try {
  ;({ handler: app } = await import("./build/handler.js"))
} catch (error) {
  console.error("The app failed to start:", error)
  await shutdown(1)
}

console.log(banner({ origin, dataDir, devDefaults, idp }))

process.once("SIGINT", () => shutdown(0))
process.once("SIGTERM", () => shutdown(0))

async function shutdown(code) {
  server.closeIdleConnections()
  server.close()
  await idp?.stop()
  process.exit(code)
}
