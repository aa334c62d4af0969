/**
 * Audit 11 (issue 9, hosts): the origin of mailed links under ExpressAuth with
 * `trust proxy` on, for a canonical origin given as `url` in the
 * configuration (not AUTH_URL), for forwarded-host lists and for the
 * `Forwarded` header Express does not read.
 */
import { afterEach, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { HttpBrowser, MemoryAdapter } from "@tessera/testing"
import { startApp } from "../harness.js"

const APP = "https://app.example.com"
const EVIL = "app.example.com.attacker.test"

const running: { stop(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

async function mailingApp(extra: Partial<AuthConfig>, trustProxy: boolean) {
  const mailed: string[] = []
  const app = await startApp(
    () => ({
      secret: "integration-suite-secret-0123456789abcdef",
      adapter: MemoryAdapter(),
      logger: { error: () => {}, warn: () => {} },
      providers: [Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) })],
      ...extra,
    }),
    { trustProxy },
  )
  running.push(app)
  return { app, mailed }
}

/** The victim's sign-in link, requested with the attacker's headers on every request. */
async function requestLink(origin: string, headers: Record<string, string>, originHeader = origin) {
  const b = new HttpBrowser(origin, "/auth", headers)
  const csrf = await b.request("/auth/csrf")
  if (csrf.status !== 200) return csrf
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  return b.request("/auth/signin/email", {
    form: { csrfToken, email: "victim@example.org" },
    headers: { origin: originHeader },
  })
}

describe("ExpressAuth with trust proxy", () => {
  test("a canonical `url` in the configuration wins over a trusted proxy's X-Forwarded-Host", async () => {
    const { app, mailed } = await mailingApp({ url: `${APP}/auth`, trustHost: true }, true)
    const response = await requestLink(app.origin, { "x-forwarded-host": EVIL }, APP)
    expect(response.status).toBe(302)
    expect(mailed).toHaveLength(1)
    expect(new URL(mailed[0]!).origin).toBe(APP)
  })

  test("trustHost: false with a canonical `url`: a forwarded host that differs is a 400, not a 500", async () => {
    const { app, mailed } = await mailingApp({ url: `${APP}/auth`, trustHost: false }, true)
    const refused = await requestLink(app.origin, { "x-forwarded-host": EVIL })
    expect(refused.status).toBe(400)
    const ok = await requestLink(
      app.origin,
      {
        "x-forwarded-host": "app.example.com",
        "x-forwarded-proto": "https",
      },
      APP,
    )
    expect(ok.status).toBe(302)
    expect(mailed.map((url) => new URL(url).origin)).toEqual([APP])
  })

  test.each([`${EVIL}, app.example.com`, "APP.EXAMPLE.COM.", "app.example.com:8443"])(
    "allowedHosts, forwarded host %j: refused, nothing mailed",
    async (forwarded) => {
      const { app, mailed } = await mailingApp(
        { trustHost: true, allowedHosts: ["app.example.com"] },
        true,
      )
      const response = await requestLink(app.origin, {
        "x-forwarded-host": forwarded,
        "x-forwarded-proto": "https",
      })
      expect(response.status).toBe(400)
      expect(mailed).toEqual([])
    },
  )

  test("`Forwarded: host=` is never read, trusted proxy or not", async () => {
    for (const trustProxy of [true, false]) {
      const { app, mailed } = await mailingApp({ trustHost: true }, trustProxy)
      const response = await requestLink(app.origin, { forwarded: `host=${EVIL};proto=https` })
      expect(response.status).toBe(302)
      expect(new URL(mailed[0]!).origin).toBe(app.origin)
    }
  })
})
