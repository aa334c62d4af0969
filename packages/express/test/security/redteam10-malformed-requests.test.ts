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
import { afterAll, beforeAll, expect, test } from "vitest"
import { ExpressAuth, getSession } from "../../src/index.js"
import { express4 } from "../harness.js"
import {
  APP_PATHS,
  fuzzConfig,
  runMalformed,
  sendRawCase,
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
