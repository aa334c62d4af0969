/**
 * Issue 9's host rules through `@tessera/express` over real HTTP, as the issue and
 * docs/express.md describe them ("every integration follows the same rule"): a forged
 * `X-Forwarded-Host` never reaches a mailed link, whether a canonical origin is set or the
 * host is bounded by `allowedHosts`; headers Express does not trust never reach core.
 * Real parts: an HTTP server, a SQLite file, an SMTP sink.
 */
import { createServer } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import express from "express"
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest"
import { ExpressAuth, getSession, type ExpressAuthConfig } from "@tessera/express"
import Nodemailer from "@tessera/core/providers/nodemailer"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import {
  HttpBrowser,
  listenOnLoopback,
  startMailSink,
  type LoopbackServer,
  type MailSink,
} from "@tessera/testing"

const SECRET = "outside-tester-secret-0123456789abcdef"
const ATTACKER_HOST = "app.example.com.attacker.test"

let sink: MailSink
let dir: string
const adapters: SqlAdapterInstance[] = []
let server: LoopbackServer | undefined
const errors: unknown[] = []

beforeAll(async () => {
  sink = await startMailSink()
  dir = mkdtempSync(join(tmpdir(), "tessera-issue9-express-"))
})
afterEach(async () => {
  await server?.stop()
  server = undefined
  vi.unstubAllEnvs()
  expect(errors.splice(0)).toEqual([])
})
afterAll(async () => {
  for (const adapter of adapters) await adapter.close()
  await sink?.stop()
  rmSync(dir, { recursive: true, force: true })
})

let serial = 0
const fresh = (name: string) => `${name}${++serial}${Date.now().toString(36)}@example.org`

async function start(
  config: Partial<ExpressAuthConfig> | ((origin: string) => Partial<ExpressAuthConfig>),
  trustProxy = false,
) {
  const adapter = SqlAdapter.sqlite(join(dir, `db${++serial}.sqlite`))
  await adapter.migrate()
  adapters.push(adapter)
  const http = createServer()
  server = await listenOnLoopback(http)
  const authConfig: ExpressAuthConfig = {
    secret: SECRET,
    adapter,
    providers: [Nodemailer({ server: sink.url, from: "app@example.com" })],
    logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    ...(typeof config === "function" ? config(server.origin) : config),
  }
  const app = express()
  if (trustProxy) app.set("trust proxy", true)
  app.use("/auth", ExpressAuth(authConfig))
  app.get("/me", async (req, res) => {
    res.json(await getSession(req, authConfig))
  })
  http.on("request", app)
  return { browser: new HttpBrowser(server.origin), origin: server.origin }
}

async function askLink(browser: HttpBrowser, email: string, headers: Record<string, string>) {
  const seen = sink.messages.length
  const csrfToken = await browser.csrfToken()
  const response = await browser.request("/auth/signin/nodemailer", {
    form: { email, csrfToken },
    headers,
  })
  return { response, seen }
}

const linkIn = (text: string) => /https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(text)![0]

async function mailFor(email: string, seen: number) {
  return sink.waitForMessage((m) => sink.messages.indexOf(m) >= seen && m.to.includes(email))
}

describe("Express: hosts", () => {
  test("AUTH_URL set, Express trusting the proxy: a forged X-Forwarded-Host still gets the canonical link", async () => {
    vi.stubEnv("AUTH_URL", "https://app.example.com/auth")
    const { browser } = await start({}, true)
    const email = fresh("victim")
    const forged = { "x-forwarded-host": ATTACKER_HOST, "x-forwarded-proto": "https" }
    const { response, seen } = await askLink(browser, email, forged)
    expect(response.status).toBe(302)
    const mail = await mailFor(email, seen)
    expect(new URL(linkIn(mail.text)).origin).toBe("https://app.example.com")
    expect(mail.text + mail.html).not.toContain("attacker")
  })

  test("no canonical origin, trustHost + allowedHosts, Express trusting the proxy: other hosts get 400 and no mail", async () => {
    const { browser } = await start(
      (origin) => ({ trustHost: true, allowedHosts: [new URL(origin).host] }),
      true,
    )
    // The app's own host works.
    expect((await browser.request("/auth/session")).status).toBe(200)
    const email = fresh("victim")
    const { response, seen } = await askLink(browser, email, { "x-forwarded-host": ATTACKER_HOST })
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/UntrustedHost/)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(sink.messages.slice(seen).filter((m) => m.to.includes(email))).toEqual([])
    // getSession on a forged host: no session read, no 500 (nothing to build on it).
    const me = await browser.request("/me", { headers: { "x-forwarded-host": ATTACKER_HOST } })
    expect(me.status).toBeLessThan(500)
  })

  test("no canonical origin, Express not trusting the proxy: X-Forwarded-Host never reaches core", async () => {
    const { browser, origin } = await start({ trustHost: true })
    const email = fresh("someone")
    const { response, seen } = await askLink(browser, email, { "x-forwarded-host": ATTACKER_HOST })
    expect(response.status).toBe(302)
    const mail = await mailFor(email, seen)
    expect(new URL(linkIn(mail.text)).host).toBe(new URL(origin).host)
    expect(mail.text + mail.html).not.toContain("attacker")
  })
})
