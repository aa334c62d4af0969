/**
 * Red team 10: malformed requests to Hono apps, by the thousand, over real
 * HTTP (`@hono/node-server` on loopback) and through `app.fetch` (as Workers,
 * Bun and Deno call it, with the request's URL on whatever host it claims).
 * Two apps: one with nothing in front at `/auth/*`, one at `/api/auth/*`
 * behind a middleware that reads the body first (`c.req.json()`,
 * `c.req.formData()`, `c.req.parseBody()`, `c.req.text()`, as a logging or
 * validating middleware does, ignoring what it cannot parse). Each request
 * goes to the auth routes or to app routes that read the session
 * (`verifyAuth()` on `/me`, `getAuthUser(c)` on `/`), with hostile method,
 * target, headers and body; the real CSRF token and cookie half the time, a
 * real session a third of the time (core/test/harness/malformed-http.ts).
 *
 * Whatever arrives: never a 5xx, an error reaching `app.onError`, an uncaught
 * exception or unhandled rejection, or a `logger.error` line; the server keeps
 * answering; every `Location` and mailed link is on the trusted host.
 */
import type { Server } from "node:http"
import { Agent } from "node:http"
import { createAdaptorServer } from "@hono/node-server"
import { Hono } from "hono"
import { HTTPException } from "hono/http-exception"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { listenOnLoopback } from "@tessera/testing"
import { authHandler, getAuthUser, initAuthConfig, verifyAuth } from "../../src/index.js"
import {
  APP_PATHS,
  fuzzConfig,
  realCredentials,
  runMalformed,
  sendRawCase,
  sessionSightings,
  urlsBuiltFor,
  type FuzzTarget,
  type RawAnswer,
  type RawCase,
} from "../../../core/test/harness/malformed-http.js"

const CASES = 1500

type Running = FuzzTarget & { faults: string[]; errors: Error[]; app: Hono; stop(): Promise<void> }

const apps: Running[] = []
const agent = new Agent({ keepAlive: true, maxSockets: 2 })

/** Reads the body the way app middleware does, before authHandler() sees the request. */
async function readBodyFirst(c: Parameters<Parameters<Hono["use"]>[1]>[0]): Promise<void> {
  const type = (c.req.header("content-type") ?? "").toLowerCase()
  try {
    if (type.startsWith("application/json")) await c.req.json()
    else if (type.startsWith("multipart/form-data")) await c.req.formData()
    else if (type.startsWith("application/x-www-form-urlencoded")) await c.req.parseBody()
    else if (c.req.method !== "GET" && c.req.method !== "HEAD") await c.req.text()
  } catch {
    // What it cannot parse is the route's business.
  }
}

async function start(
  name: string,
  { mount, readsBody }: { mount: string; readsBody: boolean },
): Promise<Running> {
  const faults: string[] = []
  let config: AuthConfig | undefined
  const app = new Hono()
  app.use(
    "*",
    initAuthConfig(() => config!),
  )
  // Not Hono's bodyLimit: on Node.js it touches `c.req.raw.body`, which @hono/node-server cannot
  // make for an absolute-form target with userinfo (a 500 before Tessera runs, in any app).
  if (readsBody) {
    app.use("*", async (c, next) => {
      await readBodyFirst(c)
      await next()
    })
  }
  app.use(mount, authHandler())
  app.use("/me", verifyAuth())
  app.get("/me", (c) => c.json(c.get("authUser").session))
  app.get("/", async (c) => c.json((await getAuthUser(c))?.session ?? null))
  app.onError((error, c) => {
    if (error instanceof HTTPException) return error.getResponse()
    faults.push(`${c.req.method} ${c.req.url}: ${error.message}`)
    return c.text("fault", 500)
  })
  const loopback = await listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as Server)
  const { origin } = loopback
  const port = Number(new URL(origin).port)
  const made = fuzzConfig(origin)
  config = made.config
  let turn = 0
  return {
    name,
    origin,
    mount: mount.replace(/\/\*$/, ""),
    protocols: ["http:"],
    errors: made.errors,
    faults,
    mailed: made.mailed,
    app,
    stop: loopback.stop,
    // Every other request through app.fetch, unless only a socket can carry it.
    send: (sent) =>
      sent.lying || turn++ % 2 === 0 ? sendRawCase(port, sent, agent) : throughFetch(app, sent),
  }
}

/** `sent` through `app.fetch`, its URL on the host it claims (absolute target, else `Host`). */
async function throughFetch(app: Hono, sent: RawCase): Promise<RawAnswer> {
  const host = sent.headers.find(([name]) => name === "host")?.[1] ?? ""
  const absolute = /^https?:\/\//.test(sent.target)
  const url = URL.canParse(absolute ? sent.target : `http://${host}${sent.target}`)
    ? new URL(absolute ? sent.target : `http://${host}${sent.target}`)
    : undefined
  // No runtime hands an app a request it could not parse into a URL: a server would have refused it.
  if (!url) return { status: 400, headers: {}, body: "" }
  const headers = new Headers()
  for (const [name, value] of sent.headers) {
    // Framing is the runtime's: a Request has a body, not a length.
    if (name !== "content-length" && name !== "transfer-encoding") headers.append(name, value)
  }
  const withBody = sent.body !== undefined && sent.method !== "GET" && sent.method !== "HEAD"
  let request: Request
  try {
    request = new Request(url, {
      method: sent.method,
      headers,
      body: withBody ? new Uint8Array(sent.body!) : undefined,
    })
  } catch {
    return { status: 400, headers: {}, body: "" }
  }
  const response = await app.fetch(request)
  const answered = {
    location: response.headers.get("location") ?? undefined,
    "set-cookie": response.headers.getSetCookie(),
  }
  return { status: response.status, headers: answered, body: await response.text() }
}

beforeAll(async () => {
  apps.push(
    await start("hono", { mount: "/auth/*", readsBody: false }),
    await start("hono, body read first", { mount: "/api/auth/*", readsBody: true }),
  )
})
afterAll(async () => {
  agent.destroy()
  await Promise.all(apps.map((app) => app.stop()))
})

test(`${CASES} malformed requests over HTTP and app.fetch: never a 5xx, an exception or an error log line; Locations stay on the trusted host`, async () => {
  const { failures, statuses } = await runMalformed(apps, {
    cases: CASES,
    seed: 0x10e4c,
    appPaths: APP_PATHS,
  })
  expect(failures).toEqual([])
  console.info("redteam10 hono statuses", statuses)
  expect(statuses[200]).toBeGreaterThan(50)
  expect(statuses[302]).toBeGreaterThan(10)
})

/** A target through app `app`, over HTTP: Host the app's own, `extra` headers, `body`. */
function toApp(
  app: Running,
  sent: Omit<RawCase, "describe" | "headers"> & { headers?: [string, string][] },
) {
  const host = new URL(app.origin).host
  return app.send({ ...sent, headers: [["host", host], ...(sent.headers ?? [])], describe: "" })
}

test("a body an earlier middleware failed to read (broken multipart, a dropped connection) is a 400, not a 500", async () => {
  const app = apps[1]!
  const before = app.faults.length
  const broken = await toApp(app, {
    method: "POST",
    target: "/api/auth/signout",
    headers: [
      ["content-type", "multipart/form-data; boundary=x"],
      ["content-length", "7"],
    ],
    body: Buffer.from("--nope\n"),
    lying: true,
  })
  expect(broken.status).toBe(400)
  const dropped = await toApp(app, {
    method: "POST",
    target: "/api/auth/signout",
    headers: [
      ["content-type", "text/plain"],
      ["content-length", "100"],
    ],
    body: Buffer.from("csrfToken="),
    lying: true,
  })
  expect(dropped.status === 0 || dropped.status < 500).toBe(true)
  expect(app.faults.slice(before)).toEqual([])
  expect(app.errors).toEqual([])
})

test("a multipart sign-in still signs in after a middleware read c.req.formData()", async () => {
  const app = apps[1]!
  const real = await realCredentials(app)
  const form = new FormData()
  form.append("csrfToken", real.csrf.token)
  form.append("username", "multipart")
  form.append("password", "pw")
  const encoded = new Response(form)
  const body = Buffer.from(await encoded.arrayBuffer())
  const signedIn = await toApp(app, {
    method: "POST",
    target: "/api/auth/callback/credentials",
    headers: [
      ["cookie", real.csrf.cookie],
      ["origin", app.origin],
      ["content-type", encoded.headers.get("content-type")!],
      ["content-length", String(body.length)],
    ],
    body,
  })
  expect(signedIn.status).toBe(302)
  expect(new URL(String(signedIn.headers.location)).pathname).not.toContain("error")
})

test("a target with userinfo (GET http://a@evil.example/...) is refused or signed out, never a 500", async () => {
  for (const app of apps) {
    const before = app.faults.length
    const real = await realCredentials(app)
    for (const path of [`${app.mount}/signin`, `${app.mount}/session`, "/me", "/"]) {
      const answer = await sendRawCase(
        Number(new URL(app.origin).port),
        {
          method: "GET",
          target: `http://a@evil.example${path}`,
          headers: [
            ["host", new URL(app.origin).host],
            ["cookie", real.session],
          ],
          describe: "",
        },
        agent,
      )
      // No host, so no session read on it: the page sees nobody signed in, the rest is refused.
      if (path === "/") expect([answer.status, answer.body]).toEqual([200, "null"])
      else expect([path, answer.status]).toEqual([path, path === "/me" ? 401 : 400])
    }
    expect(app.faults.slice(before)).toEqual([])
  }
})

describe("hosts: Hono behind a proxy", () => {
  const own = (app: Running) => new URL(app.origin).host
  afterEach(() => {
    delete process.env.AUTH_URL
  })

  test("trustHost + allowedHosts: X-Forwarded-* are ignored, a forged Host or absolute target refused", async () => {
    for (const app of apps.slice(0, 2)) {
      const forwarded = await urlsBuiltFor(app, [
        ["host", own(app)],
        ["x-forwarded-host", "evil.example"],
        ["x-forwarded-proto", "https"],
        ["forwarded", "host=evil.example;proto=https"],
      ])
      expect(forwarded.status).toBe(302)
      expect(new Set(forwarded.origins)).toEqual(new Set([app.origin]))
      expect(await urlsBuiltFor(app, [["host", "evil.example"]])).toEqual({
        status: 400,
        origins: [],
      })
      // A proxy that passes its own Host on: refused until AUTH_URL (or allowedHosts) names it.
      expect(
        await urlsBuiltFor(app, [
          ["host", "internal:3000"],
          ["x-forwarded-host", own(app)],
        ]),
      ).toEqual({ status: 400, origins: [] })
    }
  })

  test("AUTH_URL: every link on it, whatever Host and X-Forwarded-* say", async () => {
    // Read once, as an app reads its environment at start.
    process.env.AUTH_URL = "https://app.example.test"
    const app = await start("hono, AUTH_URL", { mount: "/auth/*", readsBody: false })
    apps.push(app)
    for (const headers of [
      [["host", "evil.example"]],
      [
        ["host", "internal:3000"],
        ["x-forwarded-host", "evil.example"],
        ["x-forwarded-proto", "http"],
      ],
    ] as [string, string][][]) {
      const built = await urlsBuiltFor(app, headers)
      expect(built.status).toBe(302)
      expect(new Set(built.origins)).toEqual(new Set(["https://app.example.test"]))
    }
  })
})

test("verifyAuth sees a session exactly when Auth() does: forged, ended, misnamed cookies", async () => {
  const both = (seen: boolean) => ({ auth: seen, app: seen })
  for (const app of apps.slice(0, 2)) {
    // No forwarded protocol counts: the request is http, whatever X-Forwarded-Proto says.
    expect([app.name, await sessionSightings(app)]).toEqual([
      app.name,
      {
        live: both(true),
        "live via https": both(true),
        tampered: both(false),
        "tampered via https": both(false),
        "signed out": both(false),
        "signed out via https": both(false),
        "__Secure- name": both(false),
        "__Secure- name via https": both(false),
        // By design, as Express's getSession: on a host Auth() refuses the app still reads it.
        "live on evil.example": { auth: false, app: true },
      },
    ])
  }
})
