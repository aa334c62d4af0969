/**
 * A throwaway Redis server for tests: Debian's `redis-server`, on 127.0.0.1 at
 * a free port, with persistence off (`--save "" --appendonly no`) and its
 * working directory in a temp dir, stopped and deleted afterwards.
 *
 * Why this shape:
 * - `REDIS_URL` wins, as `DATABASE_URL` does for `startPostgres`: a server that
 *   is already running is used, and nothing is stopped.
 * - The server runs in the foreground as a child process, so stopping it is a
 *   signal; a process `exit` hook and a tiny detached watchdog stop it too if
 *   `stop()` is never called or this process is killed.
 * - `findRedisServer()` lets a test file skip, saying so, where the binary is
 *   missing (`.ci/run` installs it), as the browser tests do without Chromium.
 * @module
 */
import { spawn, type ChildProcess } from "node:child_process"
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { freePort } from "./postgres.js"
import { afterExit, shellQuote } from "./watchdog.js"

/**
 * A Redis server started for tests: its URL, and how to stop it.
 *
 * @see [docs/testing.md: PostgreSQL and Redis](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#postgresql-and-redis)
 */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string
  /** The port it listens on: start another server there (`startRedis({ port })`) to stand for a restart. */
  port: number
  /** The server's process id (`undefined` for `REDIS_URL`): a test can `SIGSTOP` it to stand for a Redis that stops answering. */
  pid: number | undefined
  /** Stops the server and deletes its directory. Safe to call twice. */
  stop(): Promise<void>
}

/**
 * Options of {@link startRedis}.
 *
 * @see [docs/testing.md: PostgreSQL and Redis](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#postgresql-and-redis)
 */
export interface StartRedisOptions {
  /** Ignore `REDIS_URL` and always start a private server. */
  ignoreEnv?: boolean
  /** The binary; default `findRedisServer()`. */
  binary?: string
  /** Listen on this port (a restart, in an outage test) instead of a free one. Implies `ignoreEnv`. */
  port?: number
  /** More `redis-server` arguments (`["--requirepass", "…"]`). Implies `ignoreEnv`. */
  args?: readonly string[]
}

/**
 * `redis-server` from `PATH` (or `/usr/bin`, `/usr/local/bin`), or `undefined` when there is none.
 *
 * @see [docs/testing.md: PostgreSQL and Redis](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#postgresql-and-redis)
 */
export function findRedisServer(): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), "/usr/bin", "/usr/local/bin"]
  for (const dir of dirs) {
    if (!dir) continue
    const file = join(dir, "redis-server")
    try {
      accessSync(file, constants.X_OK)
      return file
    } catch {}
  }
  return undefined
}

/**
 * Starts (or, with `REDIS_URL` set, reuses) a Redis server.
 *
 * @example
 * ```ts
 * const redis = await startRedis()
 * const client = createClient({ url: redis.url })
 * client.on("error", () => {}) // node-redis throws an unheard "error" event, ending the run
 * await client.connect()
 * // ...
 * await client.quit()
 * await redis.stop()
 * ```
 *
 * @param options Whether to ignore `REDIS_URL`, which binary to run, and (for outage tests) its port and more arguments.
 * @see [docs/testing.md: PostgreSQL and Redis](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#postgresql-and-redis)
 */
export async function startRedis(options: StartRedisOptions = {}): Promise<RedisServer> {
  const fromEnv = process.env.REDIS_URL
  const own = options.ignoreEnv || options.port !== undefined || options.args !== undefined
  if (!own && fromEnv && /^rediss?:\/\//.test(fromEnv))
    return {
      url: fromEnv,
      port: Number(new URL(fromEnv).port || 6379),
      pid: undefined,
      stop: async () => {},
    }
  const binary = options.binary ?? findRedisServer()
  if (!binary) throw new Error("startRedis: no redis-server found (apt-get install redis-server)")
  const args = options.args ?? []
  if (options.port !== undefined) return launch(binary, options.port, args)
  // A port can be taken between picking and binding it: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    try {
      return await launch(binary, port, args)
    } catch (error) {
      if (attempt >= 3 || !/address already in use/i.test(String(error))) throw error
    }
  }
}

async function launch(binary: string, port: number, args: readonly string[]): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "tessera-redis-"))
  const child = spawn(
    binary,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
      ...args,
    ],
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
  )
  const cleanup = () => {
    child.kill("SIGKILL")
    rmSync(dir, { recursive: true, force: true })
  }
  process.on("exit", cleanup)
  const watchdog = afterExit(`kill -9 ${child.pid} 2>/dev/null; rm -rf ${shellQuote(dir)}`)

  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    process.off("exit", cleanup)
    await terminate(child)
    rmSync(dir, { recursive: true, force: true })
    watchdog.cancel()
  }

  try {
    await ready(child)
  } catch (error) {
    await stop()
    throw error
  }
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid, stop }
}

/** Resolves when the server says it accepts connections; rejects with its output if it exits first. */
function ready(child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = ""
    const timer = setTimeout(
      () => finish(new Error(`redis-server did not start:\n${output}`)),
      timeoutMs,
    )
    const onData = (chunk: Buffer) => {
      output += chunk
      if (/Ready to accept connections/.test(output)) finish()
    }
    const onExit = (code: number | null) =>
      finish(new Error(`redis-server exited (${code}):\n${output.trim()}`))
    function finish(error?: Error) {
      clearTimeout(timer)
      child.stdout?.off("data", onData)
      child.stderr?.off("data", onData)
      child.off("exit", onExit)
      // Keep draining its output, or a chatty server would block on a full pipe.
      child.stdout?.resume()
      child.stderr?.resume()
      if (error) reject(error)
      else resolve()
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", onData)
    child.on("exit", onExit)
  })
}

/** SIGTERM (Redis exits at once without persistence), SIGKILL after 5 s. */
function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill("SIGTERM")
    // A server a test stopped (SIGSTOP) only acts on the signal once it runs again.
    child.kill("SIGCONT")
  })
}
