/**
 * Red team 9: malformed requests, sent by the thousand. Anyone can send
 * `Auth()` any method, path, header and body; whatever they send must get a
 * 4xx (or a page, or a redirect) and never a 5xx, a thrown exception or a
 * line in the error log, which is for server faults only (a flood of client
 * mistakes there hides the real ones and pages whoever is on call).
 *
 * Seeded: each case is built from a fixed pseudo-random sequence, so a
 * failure names a case that can be replayed. The requests carry a real CSRF
 * token and cookie half the time, so they get past the CSRF check into the
 * actions, and a real session a third of the time, so they reach the
 * signed-in routes (second factors, session management, session updates).
 */
import { expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import Passkey from "@tessera/core/providers/passkey"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { MemoryAdapter } from "@tessera/testing"
import {
  ADA,
  credentialsProvider,
  csrfToken,
  oauthProvider,
  ORIGIN,
  recordingLogger,
  SECRET,
  signIn,
} from "../harness/index.js"
import { pick, seededRandom } from "../harness/seeded.js"

const CASES = 2500

const PATHS = [
  "",
  "/",
  "/csrf",
  "/providers",
  "/session",
  "/signin",
  "/signin/credentials",
  "/signin/github",
  "/signin/email",
  "/signin/passkey",
  "/signin/nope",
  "/signout",
  "/callback/credentials",
  "/callback/github",
  "/callback/email",
  "/callback/passkey",
  "/callback/two-factor",
  "/callback/",
  "/callback/credentials/extra",
  "/error",
  "/verify-request",
  "/webauthn-options/passkey",
  "/webauthn-options/github",
  "/two-factor",
  "/two-factor/status",
  "/two-factor/setup",
  "/two-factor/enable",
  "/two-factor/disable",
  "/sessions",
  "/sessions/revoke",
  "/backchannel-logout/github",
  "/%",
  "/%2e%2e/session",
  "/callback/%00",
  "/callback/%E0%A4%A",
  "//session",
]
const METHODS = ["GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]
const FIELDS = [
  "csrfToken",
  "callbackUrl",
  "username",
  "password",
  "email",
  "token",
  "code",
  "action",
  "response",
  "data",
  "scope",
  "id",
  "error",
  "state",
  "redirect",
  "json",
  "__proto__",
  "constructor",
  "logout_token",
  "recoveryCode",
]
const QUERY = ["callbackUrl", "error", "code", "state", "token", "email", "action", "provider"]

let seedCounter = 0

function hostileValues(next: () => number, csrf: string): string[] {
  const long = "a".repeat(Math.floor(next() * 100_000))
  return [
    "",
    " ",
    "ada",
    "correct horse",
    "ada@example.com",
    "not-an-email",
    "\u0000",
    "\uD800",
    "%",
    "%E0%A4%A",
    "../../etc/passwd",
    "javascript:alert(1)",
    "//evil.example/x",
    "https://evil.example/",
    "http://localhost:3000/dashboard",
    "\\\\evil.example",
    "{",
    '{"a":',
    "[]",
    "null",
    "true",
    "0",
    "-1",
    "1e309",
    "NaN",
    "authenticate",
    "register",
    "all",
    "others",
    "123456",
    "AAAA-BBBB",
    long,
    csrf,
    `${csrf}x`,
    JSON.stringify({ id: "x", rawId: "x", type: "public-key", response: {} }),
    JSON.stringify({ id: 1, response: { clientDataJSON: "%%%", authenticatorData: null } }),
    JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: {} } }),
    String(seedCounter++),
  ]
}

/** A value as a header can carry it: raw when it can (Latin-1, no control characters), else percent-encoded. */
function inHeader(value: string): string {
  return /^[\x20-\x7e\x80-\xff]*$/.test(value)
    ? value
    : encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, "\uFFFD"))
}

interface Case {
  request: Request
  describe: string
}

function makeCase(
  next: () => number,
  csrf: { token: string; cookie: string },
  session: string,
): Case {
  const method = pick(next, METHODS)
  const path = `/auth${pick(next, PATHS)}`
  const values = hostileValues(next, csrf.token)
  const query = new URLSearchParams()
  for (let i = Math.floor(next() * 3); i > 0; i--)
    query.append(pick(next, QUERY), pick(next, values))
  const search = query.size ? `?${query}` : ""
  const headers = new Headers()
  const cookies: string[] = []
  if (next() < 0.5) cookies.push(csrf.cookie)
  if (next() < 0.33) cookies.push(session)
  if (next() < 0.15) cookies.push(`tessera.session-token=${inHeader(pick(next, values))}`)
  if (next() < 0.1) cookies.push(`authjs.session-token=${inHeader(pick(next, values))}`)
  if (next() < 0.1) cookies.push(`tessera.two-factor=${inHeader(pick(next, values))}`)
  if (next() < 0.1) cookies.push(`tessera.challenge=${inHeader(pick(next, values))}`)
  if (cookies.length) headers.set("cookie", cookies.join("; "))
  if (next() < 0.7)
    headers.set("origin", next() < 0.8 ? ORIGIN : pick(next, ["null", "https://evil.example", "%"]))
  if (next() < 0.2) headers.set("x-auth-return-redirect", "1")
  if (next() < 0.2)
    headers.set("sec-fetch-site", pick(next, ["same-origin", "cross-site", "none", "??"]))
  if (next() < 0.1)
    headers.set("accept-language", pick(next, ["fr", "*", "zz-ZZ;q=x", "de-CH,de;q=0.9", ""]))
  if (next() < 0.1)
    headers.set("x-forwarded-for", pick(next, ["1.2.3.4", "::1", "x", "1.2.3.4, ::ffff:5.6.7.8"]))

  let body: BodyInit | undefined
  if (method !== "GET" && method !== "HEAD") {
    const fields: [string, string][] = []
    if (next() < 0.6) fields.push(["csrfToken", csrf.token])
    for (let i = Math.floor(next() * 5); i > 0; i--)
      fields.push([pick(next, FIELDS), pick(next, values)])
    const kind = next()
    if (kind < 0.45) {
      headers.set("content-type", "application/x-www-form-urlencoded")
      body = new URLSearchParams(fields).toString()
    } else if (kind < 0.7) {
      headers.set("content-type", "application/json")
      const shape = next()
      body =
        shape < 0.6
          ? JSON.stringify(Object.fromEntries(fields))
          : shape < 0.8
            ? JSON.stringify(fields.map(([, value]) => value))
            : pick(next, ['{"csrfToken":', "null", "[1,2", '"x"', "{}", '{"response":{"id":[]}}'])
    } else if (kind < 0.85) {
      const form = new FormData()
      for (const [name, value] of fields) form.append(name, value)
      if (next() < 0.3) form.append("file", new Blob(["x"]), "x.txt")
      body = form
    } else {
      headers.set(
        "content-type",
        pick(next, [
          "text/plain",
          "multipart/form-data; boundary=nope",
          "application/x-www-form-urlencoded; charset=utf-7",
          "application/json; charset=latin1",
          "",
        ]),
      )
      body = pick(next, ["", "%%%", "a=b&&=&c", "--nope--", "\u0000\u0001", values.at(-2)!])
    }
  }
  const url = `${ORIGIN}${path}${search}`
  return {
    request: new Request(url, { method, headers, body }),
    describe: `${method} ${url.slice(0, 200)} [${[...headers.keys()].join(",")}]`,
  }
}

test(`${CASES} malformed requests: never a 5xx, a thrown error or an error log line`, async () => {
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    session: { strategy: "jwt", revalidateAge: 0 },
    logger: log.logger,
    rateLimit: { store: new MemoryRateLimitStore() },
    twoFactor: { issuer: "Fuzz" },
    providers: [
      credentialsProvider(),
      oauthProvider(),
      Email({ sendVerificationRequest: () => {}, method: "both" }),
      Passkey(),
    ],
  }
  await config.adapter!.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
  const { jar } = await signIn(config)
  const session = jar.header()
  const { token, jar: csrfJar } = await csrfToken(config)
  const csrf = { token, cookie: csrfJar.header() }
  expect(session).toContain("session-token")

  const next = seededRandom(0x7e55e7a)
  const failures: string[] = []
  for (let i = 0; i < CASES; i++) {
    const { request, describe } = makeCase(next, csrf, session)
    const errorsBefore = log.errors.length
    try {
      const response = await Auth(request, config)
      await response.arrayBuffer()
      if (response.status >= 500) failures.push(`#${i} ${response.status}: ${describe}`)
    } catch (error) {
      failures.push(`#${i} threw ${(error as Error).message}: ${describe}`)
    }
    if (log.errors.length > errorsBefore)
      failures.push(`#${i} logged ${log.errors.at(-1)?.message}: ${describe}`)
  }
  expect(failures).toEqual([])
})
