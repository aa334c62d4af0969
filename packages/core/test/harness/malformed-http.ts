/**
 * Malformed HTTP requests for the framework integrations' red-team tests, and
 * a way to send them to a server on loopback exactly as built: a forged or
 * duplicated `Host`, raw bytes in the path, an absolute-form target, a
 * `Content-Length` that lies. Cases come from a seeded sequence
 * (`seeded.ts`), so a failure names one that replays. Also the probes the
 * red-team tests share: the URLs built for a client claiming other hosts, and
 * whether `Auth()` and an app route see a session on the same cookies.
 * @module
 */
import { request as httpRequest, type Agent } from "node:http"
import { connect } from "node:net"
import type { AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import Email from "@tessera/core/providers/email"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { HttpBrowser, MemoryAdapter } from "@tessera/testing"
import { recordingLogger } from "./logger.js"
import { pick, seededRandom } from "./seeded.js"

/** What a case may carry that is real: the trusted host, a CSRF token with its cookie, a session. */
export interface Credentials {
  /** The host the app trusts (`127.0.0.1:<port>`). */
  host: string
  csrf: { token: string; cookie: string }
  /** The `Cookie` header value of a signed-in browser. */
  session: string
}

/** One request as it goes on the wire. */
export interface RawCase {
  method: string
  /** The request target: `/path?query`, raw bytes as Latin-1, or an absolute form. */
  target: string
  /** In order; a name may repeat. */
  headers: [string, string][]
  body?: Buffer
  /** Framing that lies (Content-Length against the body): sent on its own connection. */
  lying?: boolean
  describe: string
}

/** What came back; status 0 when the server closed without an answer (a request it could not parse). */
export interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

const METHODS = ["GET", "GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]

/** Paths under the mount (`""` is the mount itself). */
const AUTH_PATHS = [
  "",
  "/",
  "/csrf",
  "/providers",
  "/session",
  "/signin",
  "/signin/credentials",
  "/signin/email",
  "/signin/nope",
  "/signout",
  "/callback/credentials",
  "/callback/email",
  "/callback/two-factor",
  "/callback/",
  "/error",
  "/verify-request",
  "/two-factor/setup",
  "/two-factor/status",
  "/sessions",
  "/sessions/revoke",
  "/%",
  "/%00",
  "/session%00",
  "/%C3%28",
  "/\xff\xfe",
  "/callback/%E0%A4%A",
  "//session",
  "/%2e%2e/session",
  "/session/..",
  "/SESSION",
  "/signin%2fcredentials",
]

const FIELDS = [
  "csrfToken",
  "callbackUrl",
  "username",
  "password",
  "email",
  "token",
  "code",
  "redirect",
  "scope",
  "id",
  "data",
  "__proto__",
  "constructor",
  "providerId",
  "recoveryCode",
]
const QUERY = ["callbackUrl", "error", "token", "email", "code", "redirectTo"]

function hostileValues(next: () => number, csrf: string): string[] {
  return [
    "",
    "alice",
    "wonderland-42",
    "victim@example.com",
    "not-an-email",
    "\u0000",
    "\uD800",
    "%",
    "%E0%A4%A",
    "//evil.example/x",
    "https://evil.example/",
    "/\\evil.example",
    "javascript:alert(1)",
    "/dashboard\r\nSet-Cookie: planted=1",
    "{",
    "null",
    "all",
    "123456",
    csrf,
    `${csrf}x`,
    "a".repeat(Math.floor(next() * 3000)),
  ]
}

/** A host a client might claim. */
function hostileHost(next: () => number, host: string): string {
  return pick(next, [
    host,
    host,
    host.toUpperCase(),
    "evil.example",
    `evil.example:${host.split(":")[1]}`,
    `a@evil.example`,
    "evil.example/x",
    `${host}.evil.example`,
    "localhost",
    "[::1]",
    "",
    "evil.example, " + host,
    host + ", evil.example",
  ])
}

/** A body and the `Content-Type` it is sent with (possibly not the one that fits it). */
async function hostileBody(
  next: () => number,
  fields: [string, string][],
): Promise<{ type?: string; body: Buffer }> {
  const kind = next()
  if (kind < 0.35) {
    return {
      type: "application/x-www-form-urlencoded",
      body: Buffer.from(new URLSearchParams(fields).toString()),
    }
  }
  if (kind < 0.55) {
    const text =
      next() < 0.7
        ? JSON.stringify(Object.fromEntries(fields))
        : pick(next, ['{"csrfToken":', "[1,2", "null", '"x"', "{}", '{"a":1}garbage'])
    return {
      type: pick(next, ["application/json", "application/json; charset=latin1"]),
      body: Buffer.from(text),
    }
  }
  if (kind < 0.7) {
    const form = new FormData()
    for (const [name, value] of fields) form.append(name, value)
    if (next() < 0.5)
      form.append(pick(next, ["file", "csrfToken", "email"]), new Blob(["x".repeat(2000)]), "x.txt")
    const encoded = new Response(form)
    return {
      type: encoded.headers.get("content-type")!,
      body: Buffer.from(await encoded.arrayBuffer()),
    }
  }
  if (kind < 0.78) {
    // 100 KB: past every parser's and core's limit.
    return {
      type: pick(next, ["application/x-www-form-urlencoded", "application/json", "text/plain"]),
      body: Buffer.from(`csrfToken=${"a".repeat(100 * 1024)}`),
    }
  }
  // A content type that does not fit the body, or none.
  return {
    type: pick(next, [
      undefined,
      "",
      "text/plain",
      "application/octet-stream",
      "multipart/form-data",
      "multipart/form-data; boundary=nope",
      "application/x-www-form-urlencoded; charset=utf-7",
      "application/json",
      "application/x-www-form-urlencoded",
    ]),
    body: Buffer.from(
      pick(next, [
        "",
        "%%%",
        "a=b&&=&c",
        "--nope--\r\n",
        "\u0000\u0001\u00ff",
        "csrfToken[a]=1&csrfToken[]=2",
        '{"csrfToken":{"toString":1}}',
      ]),
      "latin1",
    ),
  }
}

/** A cookie value as a header can carry it (Latin-1 without controls), else percent-encoded. */
function inHeader(value: string): string {
  return /^[\x20-\x7e\x80-\xff]*$/.test(value)
    ? value
    : encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, "\uFFFD"))
}

/**
 * One malformed request: to the auth routes under `mount` or to `appPaths` (routes that read the
 * session), with hostile method, target, headers and body; the real CSRF token and cookie half
 * the time, the real session a third of the time.
 */
export async function hostileRequest(
  next: () => number,
  real: Credentials,
  mount: string,
  appPaths: readonly string[],
): Promise<RawCase> {
  const method = pick(next, METHODS)
  const values = hostileValues(next, real.csrf.token)
  let path = next() < 0.75 ? `${mount}${pick(next, AUTH_PATHS)}` : pick(next, appPaths)
  const shape = next()
  if (shape < 0.06) path = path.toUpperCase()
  else if (shape < 0.1) path = `/${path}`
  const query = new URLSearchParams()
  for (let i = Math.floor(next() * 3); i > 0; i--)
    query.append(pick(next, QUERY), pick(next, values))
  let target = query.size ? `${path}?${query}` : path
  if (next() < 0.04) target = `http://${hostileHost(next, real.host) || "evil.example"}${target}`

  const headers: [string, string][] = []
  const hostShape = next()
  if (hostShape < 0.75) headers.push(["host", real.host])
  else if (hostShape < 0.95) headers.push(["host", hostileHost(next, real.host)])
  else headers.push(["host", real.host], ["host", "evil.example"])
  if (next() < 0.25) headers.push(["x-forwarded-host", hostileHost(next, real.host)])
  if (next() < 0.05) headers.push(["x-forwarded-host", "evil.example"])
  if (next() < 0.2)
    headers.push([
      "x-forwarded-proto",
      pick(next, ["https", "http", "javascript", "https, http", ""]),
    ])
  if (next() < 0.1) headers.push(["x-forwarded-for", pick(next, ["1.2.3.4", "x", "::1, 5.6.7.8"])])
  if (next() < 0.05)
    headers.push(["forwarded", pick(next, ["host=evil.example;proto=https", "for=x"])])
  if (next() < 0.7) {
    const origin =
      next() < 0.7
        ? `http://${real.host}`
        : pick(next, ["null", "https://evil.example", "%", `https://${real.host}`])
    headers.push(["origin", origin])
  }
  if (next() < 0.25)
    headers.push([
      "sec-fetch-site",
      pick(next, ["same-origin", "cross-site", "none", "same-site", "??"]),
    ])
  if (next() < 0.1)
    headers.push([
      "referer",
      pick(next, [`http://${real.host}/x?callbackUrl=%`, "::", "https://evil.example/"]),
    ])
  if (next() < 0.15) headers.push(["x-auth-return-redirect", "1"])
  if (next() < 0.05) headers.push(["accept-language", pick(next, ["fr", "*", "zz;q=x", ""])])

  const cookies: string[] = []
  if (next() < 0.5) cookies.push(real.csrf.cookie)
  if (next() < 0.33) cookies.push(real.session)
  if (next() < 0.12) cookies.push(`tessera.session-token=${inHeader(pick(next, values))}`)
  if (next() < 0.05)
    cookies.push(
      `tessera.session-token.0=eyJ; tessera.session-token.1=${inHeader(pick(next, values))}`,
    )
  if (next() < 0.05) cookies.push(`__Secure-tessera.session-token=${inHeader(pick(next, values))}`)
  if (next() < 0.05) cookies.push(`authjs.session-token=${inHeader(pick(next, values))}`)
  if (next() < 0.05) cookies.push(`__Host-tessera.csrf-token=${inHeader(pick(next, values))}`)
  if (next() < 0.03) cookies.push(`big=${"b".repeat(pick(next, [4000, 12_000, 40_000]))}`)
  if (cookies.length) {
    // Sometimes as two Cookie lines: Node joins them with "; ", fetch's Headers with ", ".
    if (cookies.length > 1 && next() < 0.2) {
      headers.push(
        ["cookie", cookies.slice(0, 1).join("; ")],
        ["cookie", cookies.slice(1).join("; ")],
      )
    } else headers.push(["cookie", cookies.join("; ")])
  }

  let body: Buffer | undefined
  let lying = false
  if (method !== "GET" && method !== "HEAD") {
    const fields: [string, string][] = []
    if (next() < 0.6) fields.push(["csrfToken", real.csrf.token])
    for (let i = Math.floor(next() * 5); i > 0; i--)
      fields.push([pick(next, FIELDS), pick(next, values)])
    const made = await hostileBody(next, fields)
    body = made.body
    if (made.type !== undefined) headers.push(["content-type", made.type])
    if (next() < 0.06) {
      lying = true
      const length = pick(next, [0, Math.max(0, body.length - 3), body.length + 10, -1])
      headers.push(["content-length", length < 0 ? "abc" : String(length)])
      if (next() < 0.3) headers.push(["transfer-encoding", "chunked"])
    } else headers.push(["content-length", String(body.length)])
  }
  const names = headers.map(([name]) => name).join(",")
  return {
    method,
    target,
    headers,
    body,
    lying,
    describe: `${method} ${JSON.stringify(target.slice(0, 120))} [${names}]${body ? ` ${body.length}B` : ""}`,
  }
}

/**
 * Sends `sent` to the server at `port` on 127.0.0.1: through `agent` (keep-alive, a bounded
 * number of sockets), or, for lying framing or a target `node:http` will not send, on a
 * connection of its own that the client half-closes once written.
 */
export function sendRawCase(port: number, sent: RawCase, agent: Agent): Promise<RawAnswer> {
  // node:http refuses to send a target with spaces or characters past Latin-1; a socket does not.
  return sent.lying || /[^\x21-\xff]/.test(sent.target)
    ? sendOnOwnSocket(port, sent)
    : sendThroughAgent(port, sent, agent)
}

function sendThroughAgent(port: number, sent: RawCase, agent: Agent): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port,
        agent,
        method: sent.method,
        path: sent.target,
        // Raw pairs: a name may repeat, and Host is sent as given.
        headers: sent.headers.flat(),
        setHost: false,
      },
      (incoming) => {
        const chunks: Buffer[] = []
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
        incoming.on("end", () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        )
        incoming.on("error", reject)
      },
    )
    // A server that refuses the request line or headers answers and closes: the status is what counts.
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "ECONNRESET" || error.code === "EPIPE"
        ? resolve({ status: 0, headers: {}, body: "" })
        : reject(error),
    )
    outgoing.end(sent.body)
  })
}

function sendOnOwnSocket(port: number, sent: RawCase): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    const chunks: Buffer[] = []
    const head = [`${sent.method} ${sent.target} HTTP/1.1`, "connection: close"]
    for (const [name, value] of sent.headers) head.push(`${name}: ${value}`)
    socket.on("connect", () => {
      socket.write(Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "latin1"))
      if (sent.body) socket.write(sent.body)
      // Half-closed: a server waiting for bytes the Content-Length promised sees the end instead.
      socket.end()
    })
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "ECONNRESET" || error.code === "EPIPE" ? undefined : reject(error),
    )
    socket.on("close", () => resolve(parseAnswer(Buffer.concat(chunks).toString("latin1"))))
  })
}

/** The status and headers of the first answer in `text` (status 0 if there is none). */
function parseAnswer(text: string): RawAnswer {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(text)
  if (!match) return { status: 0, headers: {}, body: "" }
  const end = text.indexOf("\r\n\r\n")
  const headers: Record<string, string> = {}
  for (const line of text.slice(0, end).split("\r\n").slice(1)) {
    const colon = line.indexOf(":")
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(match[1]), headers, body: text.slice(end + 4) }
}

/**
 * Why a `Location` is not on the trusted host, or `undefined` when it is: resolved against
 * the app's own origin, as a browser resolves it, so `//evil` and `/\evil` count as elsewhere.
 */
export function foreignLocation(
  location: string | string[] | undefined,
  origin: string,
  protocols: readonly string[] = ["http:"],
): string | undefined {
  if (location === undefined) return undefined
  const value = Array.isArray(location) ? location.join(",") : location
  let url: URL
  try {
    url = new URL(value, origin)
  } catch {
    return `unparsable Location ${value.slice(0, 100)}`
  }
  if (url.host !== new URL(origin).host || !protocols.includes(url.protocol)) {
    return `Location on ${url.protocol}//${url.host}`
  }
  return undefined
}

/** An app under test: where it listens and what it recorded. */
export interface FuzzTarget {
  name: string
  origin: string
  /** Where the auth routes are mounted (`/auth`, `/api/auth`). */
  mount: string
  /** Protocols a Location may use: https too behind a trusted proxy (its X-Forwarded-Proto). */
  protocols: readonly string[]
  /** `logger.error` calls so far. */
  errors: readonly unknown[]
  /** Errors the app's own error handler saw: a 5xx the framework would answer. */
  faults: readonly string[]
  /** Links the e-mail provider was asked to send. */
  mailed: readonly string[]
  send(sent: RawCase): Promise<RawAnswer>
}

/** A browser's `Cookie` header for what `browser` holds. */
function cookiesOf(browser: HttpBrowser): string {
  return [...browser.jar].map(([name, value]) => `${name}=${value}`).join("; ")
}

/** A fresh CSRF token and a fresh session of `username` (the cases' sign-outs end the last one). */
export async function realCredentials(target: FuzzTarget, username = "fuzz"): Promise<Credentials> {
  const browser = new HttpBrowser(target.origin, target.mount)
  const signedIn = await browser.signInWithCredentials({ username, password: "pw" })
  if (signedIn.status !== 302)
    throw new Error(`${target.name}: sign-in answered ${signedIn.status}`)
  const csrf = new HttpBrowser(target.origin, target.mount)
  const token = await csrf.csrfToken()
  return {
    host: new URL(target.origin).host,
    csrf: { token, cookie: cookiesOf(csrf) },
    session: cookiesOf(browser),
  }
}

/**
 * Sends `cases` seeded malformed requests, round robin over `targets`, with real credentials
 * renewed every hundred; returns what went wrong (a 5xx, a fault in the app's error handler,
 * a `logger.error` line, a Location or mailed link off the trusted host, an uncaught exception
 * or unhandled rejection) and how many answers of each status came back.
 */
export async function runMalformed(
  targets: readonly FuzzTarget[],
  { cases, seed, appPaths }: { cases: number; seed: number; appPaths: readonly string[] },
): Promise<{ failures: string[]; statuses: Record<number, number> }> {
  const failures: string[] = []
  const onUncaught = (error: unknown) => void failures.push(`uncaught: ${String(error)}`)
  process.on("uncaughtException", onUncaught)
  process.on("unhandledRejection", onUncaught)
  const statuses: Record<number, number> = {}
  try {
    const next = seededRandom(seed)
    const real = new Map<FuzzTarget, Credentials>()
    for (let i = 0; i < cases; i++) {
      const target = targets[i % targets.length]!
      if (i % 100 < targets.length) real.set(target, await realCredentials(target))
      const sent = await hostileRequest(next, real.get(target)!, target.mount, appPaths)
      const errorsBefore = target.errors.length
      const faultsBefore = target.faults.length
      const describe = `#${i} ${target.name}: ${sent.describe}`
      let answer: RawAnswer
      try {
        answer = await target.send(sent)
      } catch (error) {
        failures.push(`${describe}: client ${(error as Error).message}`)
        continue
      }
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
      if (answer.status >= 500)
        failures.push(`${describe}: ${answer.status} ${answer.body.slice(0, 200)}`)
      const foreign = foreignLocation(answer.headers.location, target.origin, target.protocols)
      if (foreign) failures.push(`${describe}: ${foreign}`)
      if (target.errors.length > errorsBefore)
        failures.push(`${describe}: logged ${String(target.errors.at(-1))}`)
      if (target.faults.length > faultsBefore) failures.push(`${describe}: ${target.faults.at(-1)}`)
    }
    for (const target of targets) {
      // Still answering: a sign-in and a session read work after all that.
      const after = await realCredentials(target, "after")
      const me = await target.send({
        method: "GET",
        target: appPaths[0]!,
        headers: [
          ["host", after.host],
          ["cookie", after.session],
        ],
        describe: "after",
      })
      if (me.status !== 200 || !me.body.includes('"after"'))
        failures.push(`${target.name}: the session route answered ${me.status} after the run`)
      for (const link of target.mailed) {
        if (new URL(link).host !== new URL(target.origin).host)
          failures.push(`${target.name}: mailed ${link}`)
      }
    }
  } finally {
    process.off("uncaughtException", onUncaught)
    process.off("unhandledRejection", onUncaught)
  }
  return { failures, statuses }
}

/** The paths of the app routes that read the session, as the cases send them. */
export const APP_PATHS = ["/me", "/", "/me?x=%", "//me", "/ME"]

/**
 * The configuration of an app under fuzz at `origin`: credentials (anyone, password "pw", kept
 * as a user of the adapter so the session has a record to end), e-mail links, second factors,
 * JWT sessions whose record is consulted on every read, hosts bounded to the app's own; what
 * it logs and mails is recorded.
 */
export function fuzzConfig(origin: string) {
  const log = recordingLogger()
  const mailed: string[] = []
  const adapter = MemoryAdapter()
  const anyone = Credentials({
    credentials: { username: { label: "Username" }, password: { label: "Password" } },
    async authorize({ username, password }) {
      if (password !== "pw") return null
      const id = String(username)
      return (
        (await adapter.getUser!(id)) ??
        adapter.createUser!({ id, name: id, email: `${id}@example.test`, emailVerified: null })
      )
    },
  })
  const config: AuthConfig = {
    secret: "redteam10-integrations-secret-0123456789abcdef",
    trustHost: true,
    allowedHosts: [new URL(origin).host],
    adapter,
    session: { strategy: "jwt", revalidateAge: 0 },
    logger: log.logger,
    rateLimit: { store: new MemoryRateLimitStore() },
    twoFactor: { issuer: "Fuzz" },
    providers: [
      anyone,
      Email({ sendVerificationRequest: ({ url }) => void mailed.push(url), method: "both" }),
    ],
  }
  return { config, errors: log.errors, mailed }
}

/** What a client claiming other hosts got built: every absolute URL it was handed. */
export interface BuiltUrls {
  /** Status of the e-mail sign-in (or of the first step refused). */
  status: number
  /** The origins of the Location, the mailed link and the sign-in page's form actions. */
  origins: string[]
}

/**
 * As a client sending `headers` (a forged Host, `X-Forwarded-*`) to every step: a CSRF token,
 * the sign-in page, an e-mail sign-in. Returns the origins of every URL built for it.
 */
export async function urlsBuiltFor(
  target: FuzzTarget,
  headers: [string, string][],
): Promise<BuiltUrls> {
  const send = (method: string, path: string, extra: [string, string][] = [], body?: Buffer) =>
    target.send({
      method,
      target: `${target.mount}${path}`,
      headers: [...headers, ...extra],
      body,
      describe: path,
    })
  const origins: string[] = []
  const page = await send("GET", "/signin")
  if (page.status >= 400) return { status: page.status, origins }
  for (const [, action] of page.body.matchAll(/action="([^"]*)"/g))
    origins.push(new URL(action!).origin)
  const csrf = await send("GET", "/csrf")
  if (csrf.status >= 400) return { status: csrf.status, origins }
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  const cookie = [csrf.headers["set-cookie"] ?? []]
    .flat()
    .map((line) => line.split(";")[0])
    .join("; ")
  const mailedBefore = target.mailed.length
  const body = Buffer.from(
    new URLSearchParams({ email: "victim@example.com", csrfToken }).toString(),
  )
  const signIn = await send(
    "POST",
    "/signin/email",
    [
      ["cookie", cookie],
      ["content-type", "application/x-www-form-urlencoded"],
      ["content-length", String(body.length)],
    ],
    body,
  )
  const location = signIn.headers.location
  if (typeof location === "string") origins.push(new URL(location).origin)
  for (const link of target.mailed.slice(mailedBefore)) origins.push(new URL(link).origin)
  return { status: signIn.status, origins }
}

/**
 * Whether `Auth()` (`GET <mount>/session`) and the app's session reader (`GET /me`: 200 with a
 * session, 401 without) each see a session on a request with `headers`.
 */
export async function sessionSeenBy(
  target: FuzzTarget,
  headers: [string, string][],
): Promise<{ auth: boolean; app: boolean }> {
  const get = (path: string) =>
    target.send({ method: "GET", target: path, headers, describe: path })
  const auth = await get(`${target.mount}/session`)
  const app = await get("/me")
  if (app.status >= 500 || auth.status >= 500) throw new Error(`${target.name}: a 5xx`)
  return { auth: auth.status === 200 && auth.body !== "null", app: app.status === 200 }
}

/**
 * The cookies of a signed-in browser and of some it should not be signed in with, by name:
 * its own session, the same token with one character changed, a session since signed out, and
 * its session under the `__Secure-` name (Auth() reads that name only over https).
 */
export async function sessionCookieVariants(target: FuzzTarget): Promise<Record<string, string>> {
  const live = await realCredentials(target, "parity")
  const ended = await realCredentials(target, "parity-ended")
  const browser = new HttpBrowser(target.origin, target.mount)
  for (const pair of ended.session.split("; ")) {
    const eq = pair.indexOf("=")
    browser.jar.set(pair.slice(0, eq), pair.slice(eq + 1))
  }
  if ((await browser.signOut()).status !== 302) throw new Error(`${target.name}: sign-out failed`)
  const token = /tessera\.session-token=([^;]*)/.exec(live.session)![1]!
  const flipped = token.slice(0, -2) + (token.at(-2) === "A" ? "B" : "A") + token.at(-1)!
  return {
    live: live.session,
    tampered: `tessera.session-token=${flipped}`,
    "signed out": ended.session,
    "__Secure- name": `__Secure-tessera.session-token=${token}`,
  }
}

/**
 * What `Auth()` and the app's session reader each see for every cookie of
 * {@link sessionCookieVariants}, sent straight and with `X-Forwarded-Proto: https` (keys
 * `"<cookie>"` and `"<cookie> via https"`), and for the live cookie on a host the app does not
 * allow (`"live on evil.example"`).
 */
export async function sessionSightings(
  target: FuzzTarget,
): Promise<Record<string, { auth: boolean; app: boolean }>> {
  const cookies = await sessionCookieVariants(target)
  const host = new URL(target.origin).host
  const seen: Record<string, { auth: boolean; app: boolean }> = {}
  for (const [name, cookie] of Object.entries(cookies)) {
    seen[name] = await sessionSeenBy(target, [
      ["host", host],
      ["cookie", cookie],
    ])
    seen[`${name} via https`] = await sessionSeenBy(target, [
      ["host", host],
      ["cookie", cookie],
      ["x-forwarded-proto", "https"],
    ])
  }
  seen["live on evil.example"] = await sessionSeenBy(target, [
    ["host", "evil.example"],
    ["cookie", cookies.live!],
  ])
  return seen
}
