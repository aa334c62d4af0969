/**
 * Starts the demo as a child process on free loopback ports with a fresh data
 * folder: the BUILT demo (`node apps/demo/server.js`) exactly as `npm start`
 * runs it, or `npm run dev` (Vite's dev server) from the repository root.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll } from "vitest"

export const demoDir = fileURLToPath(new URL("..", import.meta.url))
const repositoryRoot = join(demoDir, "..", "..")
export const builtHandler = join(demoDir, "build", "handler.js")

export interface DemoServer {
  /** `http://localhost:<port>`: passkeys need a host name, not an IP address, as relying party id. */
  url: string
  dataDir: string
  /** Everything the process printed so far. */
  output(): string
  /** Stops the process (SIGTERM, then SIGKILL after 5 s). The data folder stays. */
  stop(): Promise<void>
}

export interface StartDemoOptions {
  /** The data folder; a restart on the same one keeps the database and the secret. */
  dataDir: string
  env?: Record<string, string>
  /** `"dev"`: `npm run dev` at the repository root instead of the built server. */
  mode?: "start" | "dev"
}

/** A fresh, empty data folder. */
export function makeDataDir(): string {
  return mkdtempSync(join(tmpdir(), "tessera-demo-"))
}

const READY = /Tessera demo ready on (http:\/\/\S+)/
// `npm run dev` may build the packages first, and Vite prepares its dependencies on start.
const startTimeout = (mode: "start" | "dev") => (mode === "dev" ? 150_000 : 45_000)

export async function startDemo(options: StartDemoOptions): Promise<DemoServer> {
  const { dataDir, mode = "start" } = options
  if (mode === "start" && !existsSync(builtHandler)) {
    throw new Error("apps/demo is not built: run `npm run build` first (`npm test` does)")
  }
  // A clean environment: no secret or provider settings of the developer's leak in.
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(AUTH_|DEMO_|EMAIL_|ORIGIN$|PORT$|HOST$|IDP_PORT$)/.test(key))
      env[key] = value
  }
  const [command, args, cwd] =
    mode === "dev"
      ? ["npm", ["run", "dev"], repositoryRoot]
      : [process.execPath, ["server.js"], demoDir]
  const child = spawn(command, args, {
    cwd,
    env: { ...env, PORT: "0", IDP_PORT: "0", DEMO_DATA_DIR: dataDir, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    // npm runs the server in a child of its own: a process group stops both.
    detached: mode === "dev",
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`The demo did not start in ${startTimeout(mode)} ms:\n${output}`)),
      startTimeout(mode),
    )
    const onData = () => {
      const match = READY.exec(output)
      if (match) {
        clearTimeout(timer)
        child.stdout!.off("data", onData)
        child.off("exit", onExit)
        resolve(match[1]!)
      }
    }
    const onExit = (code: number | null) =>
      fail(new Error(`The demo exited (${code}) before it was ready:\n${output}`))
    function fail(error: Error) {
      clearTimeout(timer)
      signal(child, "SIGKILL")
      reject(error)
    }
    child.stdout!.on("data", onData)
    child.once("exit", onExit)
  })

  return { url, dataDir, output: () => output, stop: () => stopProcess(child) }
}

/** Signals the child, and its process group when it leads one (`npm run dev`). */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    if (child.spawnargs[0] === "npm" && child.pid) process.kill(-child.pid, name)
    else child.kill(name)
  } catch {}
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => signal(child, "SIGKILL"), 5_000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    signal(child, "SIGTERM")
  })
}

/**
 * The built demo on a fresh data folder for the tests of one file: started before
 * them, stopped and its folder removed after. Read `.server` inside the tests.
 */
export function useDemo(env?: Record<string, string>): { readonly server: DemoServer } {
  const dataDir = makeDataDir()
  const handle: { server?: DemoServer } = {}
  beforeAll(async () => {
    handle.server = await startDemo({ dataDir, env })
  })
  afterAll(async () => {
    await handle.server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })
  return {
    get server() {
      if (!handle.server) throw new Error("the demo has not started")
      return handle.server
    },
  }
}
