/**
 * Red team 10: malformed requests to Express apps over real HTTP, by the
 * thousand. Two apps, as real ones are built: Express 5 with every body
 * parser mounted before Tessera (`json`, `urlencoded`, `text`, `raw`) behind
 * a trusted proxy, and Express 4 with none, at `/api/auth`, trusting no
 * proxy. Each request goes to the auth routes or to an app route that reads
 * the session with `getSession`, with a hostile method, target (`%`, `%00`,
 * broken UTF-8, double slashes, capitals, absolute form), headers (Host,
 * `X-Forwarded-*`, Origin, `Sec-Fetch-Site`, lying `Content-Length`, huge and
 * duplicated cookies) and body (form, JSON, broken JSON, multipart with files,
 * 100 KB); the real CSRF token and cookie half the time, a real session a
 * third of the time (core/test/harness/malformed-http.ts).
 *
 * Whatever arrives: never a 5xx, an error reaching Express's error handler,
 * an uncaught exception or unhandled rejection, or a `logger.error` line; the
 * server keeps answering; every `Location` and every mailed link is on the
 * trusted host. Seeded, so a failure names a case that replays.
 */
import { Agent, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express5, { type ErrorRequestHandler } from "express"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import { ExpressAuth, getSession } from "../../src/index.js"
import { express4 } from "../harness.js"
import {
  APP_PATHS,
  fuzzConfig,
  runMalformed,
  sendRawCase,
  sessionSightings,
  urlsBuiltFor,
  type FuzzTarget,
} from "../../../core/test/harness/malformed-http.js"

const CASES = 1500

type Running = FuzzTarget & {
  port: number
  faults: string[]
  errors: Error[]
  server: Server
}

const apps: Running[] = []
const agent = new Agent({ keepAlive: true, maxSockets: 2 })

async function start(
  name: string,
  express: typeof express5,
  { mount, parsers, trustProxy }: { mount: string; parsers: boolean; trustProxy: boolean },
): Promise<Running> {
  const app = express()
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening))
  })
  const port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  const faults: string[] = []
  const { config, errors, mailed } = fuzzConfig(origin)
  if (trustProxy) app.set("trust proxy", true)
  if (parsers) {
    app.use(express.json())
    app.use(express.urlencoded({ extended: true }))
    app.use(express.text())
    app.use(express.raw())
  }
  app.use(mount, ExpressAuth(config))
  app.get(["/me", "/"], async (req, res, next) => {
    try {
      const session = await getSession(req, config)
      if (!session) res.status(401).json(null)
      else res.json(session)
    } catch (error) {
      next(error)
    }
  })
  const onError: ErrorRequestHandler = (
    error: { status?: number; message?: string },
    req,
    res,
    _next,
  ) => {
    const status = error.status ?? 500
    // Body parsers refuse what they cannot read with a 4xx of their own: the client's mistake.
    if (status >= 500) faults.push(`${req.method} ${req.originalUrl}: ${error.message}`)
    if (!res.headersSent) res.status(status).end()
  }
  app.use(onError)
  return {
    name,
    origin,
    port,
    mount,
    protocols: trustProxy ? ["http:", "https:"] : ["http:"],
    errors,
    faults,
    mailed,
    server,
    send: (sent) => sendRawCase(port, sent, agent),
  }
}

beforeAll(async () => {
  apps.push(
    await start("express 5, parsers, trust proxy", express5, {
      mount: "/auth",
      parsers: true,
      trustProxy: true,
    }),
    await start("express 4, no parsers", express4, {
      mount: "/api/auth",
      parsers: false,
      trustProxy: false,
    }),
  )
})
afterAll(async () => {
  agent.destroy()
  await Promise.all(
    apps.map(
      (app) =>
        new Promise<void>((resolve) => {
          app.server.close(() => resolve())
          app.server.closeAllConnections()
        }),
    ),
  )
})

test(`${CASES} malformed requests over HTTP: never a 5xx, an exception or an error log line; Locations stay on the trusted host`, async () => {
  const { failures, statuses } = await runMalformed(apps, {
    cases: CASES,
    seed: 0x10e4b,
    appPaths: APP_PATHS,
  })
  expect(failures).toEqual([])
  // What the run explored, for the record; the real credentials got somewhere.
  console.info("redteam10 express statuses", statuses)
  expect(statuses[200]).toBeGreaterThan(50)
  expect(statuses[302]).toBeGreaterThan(10)
})

test("a client that goes away mid-body is no server fault: nothing reaches the app's error handler", async () => {
  for (const app of apps) {
    const before = app.faults.length
    const answer = await app.send({
      method: "POST",
      target: `${app.mount}/signout`,
      headers: [
        ["host", new URL(app.origin).host],
        ["content-type", "application/x-www-form-urlencoded"],
        // Promises 100 bytes, sends 10, then closes its side.
        ["content-length", "100"],
      ],
      body: Buffer.from("csrfToken="),
      lying: true,
      describe: "aborted body",
    })
    expect(answer.status === 0 || answer.status < 500).toBe(true)
    expect(app.faults.slice(before)).toEqual([])
    expect(app.errors).toEqual([])
  }
})

describe("hosts: X-Forwarded-Host/-Proto with trust proxy on and off", () => {
  const [proxied, direct] = [() => apps[0]!, () => apps[1]!]
  const own = (app: Running) => new URL(app.origin).host
  afterEach(() => {
    delete process.env.AUTH_URL
  })

  test("trustHost + allowedHosts, trust proxy off: a forwarded host is ignored, a forged Host refused", async () => {
    const app = direct()
    const forwarded = await urlsBuiltFor(app, [
      ["host", own(app)],
      ["x-forwarded-host", "evil.example"],
      ["x-forwarded-proto", "https"],
    ])
    expect(forwarded.status).toBe(302)
    expect(new Set(forwarded.origins)).toEqual(new Set([app.origin]))
    const forged = await urlsBuiltFor(app, [["host", "evil.example"]])
    expect(forged).toEqual({ status: 400, origins: [] })
  })

  test("trustHost + allowedHosts, trust proxy on: the proxy's host must be allowed; its protocol is believed", async () => {
    const app = proxied()
    for (const xfh of ["evil.example", `evil.example, ${own(app)}`, `${own(app)}.evil.example`]) {
      const refused = await urlsBuiltFor(app, [
        ["host", own(app)],
        ["x-forwarded-host", xfh],
      ])
      expect([xfh, refused]).toEqual([xfh, { status: 400, origins: [] }])
    }
    const viaProxy = await urlsBuiltFor(app, [
      ["host", "internal:3000"],
      ["x-forwarded-host", own(app)],
      ["x-forwarded-proto", "https"],
    ])
    expect(viaProxy.status).toBe(302)
    expect(new Set(viaProxy.origins)).toEqual(new Set([`https://${own(app)}`]))
  })

  test("AUTH_URL: every link on it, whatever Host and X-Forwarded-* say, trust proxy on or off", async () => {
    // Read once, as an app reads its environment at start.
    process.env.AUTH_URL = "https://app.example.test"
    const canonical = [
      await start("express 5, AUTH_URL, trust proxy", express5, {
        mount: "/auth",
        parsers: true,
        trustProxy: true,
      }),
      await start("express 4, AUTH_URL", express4, {
        mount: "/auth",
        parsers: false,
        trustProxy: false,
      }),
    ]
    apps.push(...canonical)
    for (const app of canonical) {
      for (const headers of [
        [["host", "evil.example"]],
        [
          ["host", own(app)],
          ["x-forwarded-host", "evil.example"],
          ["x-forwarded-proto", "http"],
        ],
      ] as [string, string][][]) {
        const built = await urlsBuiltFor(app, headers)
        expect([app.name, headers, built.status]).toEqual([app.name, headers, 302])
        expect(new Set(built.origins)).toEqual(new Set(["https://app.example.test"]))
      }
    }
  })
})

test("getSession sees a session exactly when Auth() does: forged, ended, misnamed cookies, over http and a proxy's https", async () => {
  const both = (seen: boolean) => ({ auth: seen, app: seen })
  for (const app of apps.slice(0, 2)) {
    const proxied = app.protocols.includes("https:")
    expect([app.name, await sessionSightings(app)]).toEqual([
      app.name,
      {
        live: both(true),
        // Over https (as a trusted proxy says) the session is the __Secure- cookie only.
        "live via https": both(!proxied),
        tampered: both(false),
        "tampered via https": both(false),
        "signed out": both(false),
        "signed out via https": both(false),
        "__Secure- name": both(false),
        // Under another name the token does not decrypt: its key is derived from the name.
        "__Secure- name via https": both(false),
        // The one difference, by design (core's sessionContext): on a host Auth() refuses, the
        // app route still reads the cookie. A browser sends a host's cookies to that host only,
        // so it is the client's own; nothing is built on the host.
        "live on evil.example": { auth: false, app: true },
      },
    ])
  }
})
