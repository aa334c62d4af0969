/**
 * `Auth()` with its rate limits on Redis while Redis goes away: a real
 * `redis-server` (with a password, as production has one) killed, restarted
 * on the same port, and stopped (SIGSTOP) so that it holds the connection
 * without answering. The app is configured as the docs show, with node-redis
 * v5's `createClient` and an `error` listener.
 *
 * What must hold: a sign-in during the outage answers within a bound (node-redis
 * queues commands while it reconnects, and waits forever for a server that
 * does not answer), with `error=Configuration` and nothing else; it fails
 * closed (no mail, no verification token); Tessera logs it once, at error
 * level, without the Redis password; and requests work again when Redis is
 * back, without restarting the app.
 */
import { createClient } from "redis"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import Nodemailer from "@tessera/core/providers/nodemailer"
import {
  findRedisServer,
  MemoryAdapter,
  startMailSink,
  startRedis,
  type MailSink,
  type RedisServer,
} from "@tessera/testing"
import { RedisRateLimitStore } from "@tessera/redis"
import { csrfToken, ORIGIN, post as harnessPost } from "../../../core/test/harness/index.js"
import { within } from "../../../core/test/harness/unresponsive.js"

const binary = findRedisServer()
const PASSWORD = `redis-pw-${crypto.randomUUID()}`
const ARGS = ["--requirepass", PASSWORD]
/** How long a request may take to answer in these tests: the store's default timeout is 1 s. */
const BOUND = 4000

let server: RedisServer
let sink: MailSink
const clients: ReturnType<typeof createClient>[] = []

/** Resolves on the client's next `ready` (it reconnected), or rejects after `ms`. */
function nextReady(client: ReturnType<typeof createClient>, ms = BOUND): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the client did not reconnect")), ms)
    client.once("ready", () => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/** A client as the docs create one, with their `error` listener and options. */
async function connect(options: { disableOfflineQueue?: boolean } = {}) {
  const client = createClient({
    url: `redis://:${PASSWORD}@127.0.0.1:${server.port}`,
    ...options,
  })
  client.on("error", () => {})
  clients.push(client)
  return client.connect()
}

function app(client: ReturnType<typeof createClient>) {
  const logged: { level: string; text: string }[] = []
  const adapter = MemoryAdapter()
  const describe = (error: unknown) => {
    const e = error as Error & { cause?: unknown }
    return [String(e), e?.stack ?? "", JSON.stringify(e?.cause ?? null)].join("\n")
  }
  const config: AuthConfig = {
    secret: "a-test-secret-that-is-long-enough-0123456789",
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    logger: {
      error: (error) => void logged.push({ level: "error", text: describe(error) }),
      warn: (code) => void logged.push({ level: "warn", text: code }),
      debug: (message, metadata) =>
        void logged.push({ level: "debug", text: `${message} ${describe(metadata)}` }),
    },
    rateLimit: {
      store: RedisRateLimitStore(client),
      credentials: { max: 20, window: 900 },
      email: { max: 20, window: 3600 },
    },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === "ada" && password === "correct horse" ? { id: "1", name: "Ada" } : null,
      }),
      Nodemailer({ server: sink.url, from: "app@example.com" }),
    ],
  }
  const errors = () => logged.filter((l) => l.level === "error")
  return { config, adapter, logged, errors }
}

/** A form POST with a fresh CSRF token, as a browser sends it (core's test harness). */
async function post(config: AuthConfig, path: string, fields: Record<string, string>) {
  const { token, jar } = await csrfToken(config)
  const response = await Auth(harnessPost(path, { ...fields, csrfToken: token }, { jar }), config)
  return { status: response.status, location: response.headers.get("location"), response }
}

const signIn = (config: AuthConfig) =>
  post(config, "/auth/callback/credentials", { username: "ada", password: "correct horse" })
const mailLink = (config: AuthConfig, email: string) =>
  post(config, "/auth/signin/nodemailer", { email })

const REFUSED = `${ORIGIN}/auth/error?error=Configuration`

/** What a sign-in refused because the store failed shows: the error page, nothing more. */
async function expectRefused(answer: Awaited<ReturnType<typeof post>> | "no answer") {
  expect(answer).not.toBe("no answer")
  const { status, location, response } = answer as Awaited<ReturnType<typeof post>>
  expect(status).toBe(302)
  expect(location).toBe(REFUSED)
  const body = await response.text()
  expect(body).not.toMatch(/redis|socket|ECONNREFUSED|timeout|at .*\.js/i)
  expect(body).not.toContain(PASSWORD)
}

/** Tessera logged each refused request once, at error level, and never the password. */
function expectLogged(logs: ReturnType<typeof app>, requests: number) {
  expect(logs.errors()).toHaveLength(requests)
  for (const entry of logs.logged) expect(entry.text).not.toContain(PASSWORD)
}

describe.skipIf(!binary)("Auth() rate limits when Redis goes away", () => {
  beforeAll(async () => {
    sink = await startMailSink()
  })
  // Each test has a server of its own, which it may kill, restart or stop.
  beforeEach(async () => {
    server = await startRedis({ binary, args: ARGS })
  })
  afterEach(async () => {
    for (const client of clients.splice(0)) client.destroy()
    await server?.stop()
  })
  afterAll(async () => {
    await sink?.stop()
  })

  test("Redis killed: sign-ins answer, refused and logged; after a restart they work again", async () => {
    const client = await connect()
    const logs = app(client)
    expect((await signIn(logs.config)).location).toBe(ORIGIN)
    expect((await mailLink(logs.config, "ada@example.com")).location).toContain("/verify-request")
    const mailed = sink.messages.length
    const tokens = logs.adapter.store.verificationTokens.size

    const down = new Promise((resolve) => client.once("error", resolve))
    process.kill(server.pid!, "SIGKILL")
    await down
    await server.stop()

    await expectRefused(await within(signIn(logs.config), BOUND))
    await expectRefused(await within(mailLink(logs.config, "bob@example.com"), BOUND))
    expectLogged(logs, 2)
    // Fail closed: the limit could not be checked, so nothing was sent or stored.
    expect(sink.messages.length).toBe(mailed)
    expect(logs.adapter.store.verificationTokens.size).toBe(tokens)

    const back = nextReady(client)
    server = await startRedis({ binary, port: server.port, args: ARGS })
    await back
    expect((await within(signIn(logs.config), BOUND)) as { location: string }).toMatchObject({
      location: ORIGIN,
    })
    expect(
      (await within(mailLink(logs.config, "bob@example.com"), BOUND)) as { location: string },
    ).toMatchObject({ location: expect.stringContaining("/verify-request") })
    expect(sink.messages.length).toBe(mailed + 1)
    expectLogged(logs, 2)
  })

  test("Redis killed, client without the offline queue (as the docs recommend): refused, and back after a restart", async () => {
    const client = await connect({ disableOfflineQueue: true })
    const logs = app(client)
    const down = new Promise((resolve) => client.once("error", resolve))
    process.kill(server.pid!, "SIGKILL")
    await down
    await server.stop()

    await expectRefused(await within(signIn(logs.config), BOUND))
    await expectRefused(await within(mailLink(logs.config, "cy@example.com"), BOUND))
    expectLogged(logs, 2)

    const back = nextReady(client)
    server = await startRedis({ binary, port: server.port, args: ARGS })
    await back
    expect((await within(signIn(logs.config), BOUND)) as { location: string }).toMatchObject({
      location: ORIGIN,
    })
  })

  test("Redis stops answering (SIGSTOP) on an open connection: sign-ins answer, refused; then work again", async () => {
    const client = await connect({ disableOfflineQueue: true })
    const logs = app(client)
    const mailed = sink.messages.length
    const tokens = logs.adapter.store.verificationTokens.size
    process.kill(server.pid!, "SIGSTOP")
    try {
      await expectRefused(await within(signIn(logs.config), BOUND))
      await expectRefused(await within(mailLink(logs.config, "dee@example.com"), BOUND))
      expectLogged(logs, 2)
      expect(logs.errors()[0]!.text).toMatch(/TimeoutError: Redis did not answer/)
      expect(sink.messages.length).toBe(mailed)
      expect(logs.adapter.store.verificationTokens.size).toBe(tokens)
    } finally {
      process.kill(server.pid!, "SIGCONT")
    }
    expect((await within(signIn(logs.config), BOUND)) as { location: string }).toMatchObject({
      location: ORIGIN,
    })
  })
})
