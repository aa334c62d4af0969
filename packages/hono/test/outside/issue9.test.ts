/**
 * Issue 9's host rules through `@tessera/hono` over real HTTP (`@hono/node-server`), as the
 * issue ("every integration follows the same rule") and docs/hono.md ("X-Forwarded-* headers
 * are removed before core sees the request"; behind a proxy, set AUTH_URL) describe them: a
 * forged `X-Forwarded-Host` never reaches a mailed link. Real parts: a SQLite file, an SMTP sink.
 */
import type { Server } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createAdaptorServer } from "@hono/node-server"
import { Hono } from "hono"
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest"
import { authHandler, initAuthConfig, type AuthConfig } from "@tessera/hono"
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
  dir = mkdtempSync(join(tmpdir(), "tessera-issue9-hono-"))
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

async function start(extra: Partial<AuthConfig> = {}) {
  const adapter = SqlAdapter.sqlite(join(dir, `db${++serial}.sqlite`))
  await adapter.migrate()
  adapters.push(adapter)
  const authConfig: AuthConfig = {
    secret: SECRET,
    adapter,
    providers: [Nodemailer({ server: sink.url, from: "app@example.com" })],
    logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    ...extra,
  }
  const app = new Hono()
  app.use(
    "*",
    initAuthConfig(() => authConfig),
  )
  app.use("/auth/*", authHandler())
  server = await listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as Server)
  return { browser: new HttpBrowser(server.origin), origin: server.origin }
}

async function linkAfterForgedAsk(browser: HttpBrowser) {
  const email = fresh("victim")
  const seen = sink.messages.length
  const response = await browser.request("/auth/signin/nodemailer", {
    form: { email, csrfToken: await browser.csrfToken() },
    headers: { "x-forwarded-host": ATTACKER_HOST, "x-forwarded-proto": "https" },
  })
  expect(response.status).toBe(302)
  const mail = await sink.waitForMessage(
    (m) => sink.messages.indexOf(m) >= seen && m.to.includes(email),
  )
  expect(mail.text + mail.html).not.toContain("attacker")
  return new URL(/https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(mail.text)![0])
}

describe("Hono: hosts", () => {
  test("AUTH_URL set: a forged X-Forwarded-Host gets the canonical link", async () => {
    vi.stubEnv("AUTH_URL", "https://app.example.com/auth")
    const { browser } = await start()
    expect((await linkAfterForgedAsk(browser)).origin).toBe("https://app.example.com")
  })

  test("trustHost without a canonical origin: the forged header is dropped, the link is on the request's own host", async () => {
    const { browser, origin } = await start({ trustHost: true })
    expect((await linkAfterForgedAsk(browser)).host).toBe(new URL(origin).host)
  })
})
