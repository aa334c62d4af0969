/**
 * `npm run dev`: the demo on Vite's dev server, with live reload, and
 * everything `npm start` gives it (setup.js): the data folder and the
 * development secret, the local OpenID provider, the environment.
 *
 * SvelteKit's dev server reads the environment once, when it is created, so
 * all of it is in place first; the local provider needs the app's port for its
 * callback URLs, so the port is settled before Vite starts (PORT=0: a free one).
 * The packages are loaded from their builds (the root `npm run dev` builds
 * them when their sources changed); the demo's own sources reload live.
 *
 * Environment: as server.js, with PORT defaulting to 5173.
 */
import { createServer as createNetServer } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { createServer } from "vite"
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

const host = env.HOST || "127.0.0.1"
const port = await settledPort(parsePort(env.PORT, 5173), host)
const { dataDir, devDefaults } = prepareEnvironment()
env.NODE_ENV ||= "development"

const origin = originOf(host, port)
const { idp } = await startServices(origin, devDefaults, host)

// SvelteKit finds svelte.config.js, src/ and .svelte-kit/ from the working directory.
process.chdir(here)
const vite = await createServer({
  root: here,
  configFile: join(here, "vite.config.ts"),
  server: {
    host,
    port,
    strictPort: true,
    // The database changes on every sign-in: nothing there is source to reload.
    watch: { ignored: [`${dataDir}/**`] },
  },
})
try {
  await vite.listen()
} catch (error) {
  // Vite's own error carries no code; the port was free a moment ago, so it is a race.
  if (/already in use/.test(String(error?.message)))
    fail(listenFailure({ code: "EADDRINUSE" }, host, port))
  throw error
}

console.log(banner({ origin, dataDir, devDefaults, idp, mode: "development server, live reload" }))

process.once("SIGINT", () => shutdown())
process.once("SIGTERM", () => shutdown())

async function shutdown() {
  await vite.close()
  await idp?.stop()
  process.exit(0)
}

/** `port`, or for 0 a port that is free now; exits with one line if `port` is taken. */
function settledPort(port, host) {
  return new Promise((resolve) => {
    const probe = createNetServer()
    probe.once("error", (error) => fail(listenFailure(error, host, port)))
    probe.listen(port, host, () => {
      const { port: free } = probe.address()
      probe.close(() => resolve(free))
    })
  })
}
