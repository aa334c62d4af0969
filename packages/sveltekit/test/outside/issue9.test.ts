/**
 * Issue 9's host rule through `@tessera/sveltekit`'s `handle`, as the issue and
 * docs/sveltekit.md describe it: with adapter-node's `ORIGIN` pinning `event.url`, that origin
 * is the canonical one, and a forged `X-Forwarded-Host` (even with `AUTH_TRUST_HOST=true`)
 * never reaches a mailed link. Real parts: a SQLite file, an SMTP sink.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import { SvelteKitAuth, setKitRuntime } from "@tessera/sveltekit"
import Nodemailer from "@tessera/core/providers/nodemailer"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { startMailSink, type MailSink } from "@tessera/testing"
import { Browser, createEvent, runHandle } from "../helpers/kit.js"

const SECRET = "an-outside-test-secret-long-enough-0123456789"
const PINNED = "https://app.example.com"
const ATTACKER_HOST = "app.example.com.attacker.test"

let sink: MailSink
let dir: string
let adapter: SqlAdapterInstance
const errors: unknown[] = []

beforeAll(async () => {
  sink = await startMailSink()
  dir = mkdtempSync(join(tmpdir(), "tessera-issue9-kit-"))
  adapter = SqlAdapter.sqlite(join(dir, "auth.sqlite"))
  await adapter.migrate()
})
afterEach(() => {
  setKitRuntime()
  expect(errors.splice(0)).toEqual([])
})
afterAll(async () => {
  await adapter?.close()
  await sink?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe("SvelteKit: the pinned event.url is the canonical origin", () => {
  test("AUTH_TRUST_HOST=true and a forged X-Forwarded-Host: the link is on ORIGIN", async () => {
    setKitRuntime(() => ({
      building: false,
      env: { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" },
    }))
    const { handle } = SvelteKitAuth({
      adapter,
      providers: [Nodemailer({ server: sink.url, from: "app@example.com" })],
      logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    })
    const browser = new Browser()
    const forged = { "x-forwarded-host": ATTACKER_HOST, "x-forwarded-proto": "https" }
    const csrf = await runHandle(
      handle,
      createEvent(browser.request(`${PINNED}/auth/csrf`, { headers: forged })),
    )
    browser.receiveResponse(csrf.response)
    const { csrfToken } = (await csrf.response.json()) as { csrfToken: string }

    const email = `victim${Date.now().toString(36)}@example.org`
    const seen = sink.messages.length
    const { response } = await runHandle(
      handle,
      createEvent(
        browser.request(`${PINNED}/auth/signin/nodemailer`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            origin: PINNED,
            ...forged,
          },
          body: new URLSearchParams({ email, csrfToken }),
        }),
      ),
    )
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).origin).toBe(PINNED)
    const mail = await sink.waitForMessage(
      (m) => sink.messages.indexOf(m) >= seen && m.to.includes(email),
    )
    const link = /https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(mail.text)![0]
    expect(new URL(link).origin).toBe(PINNED)
    expect(mail.text + mail.html).not.toContain("attacker")
  })
})
