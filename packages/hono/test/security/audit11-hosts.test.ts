/**
 * Audit 11 (issue 9, hosts) through Hono: a canonical `url` in the
 * configuration (not AUTH_URL) with `trustHost: false`. A request for another
 * host is a 400 `UntrustedHost`, not a 500; on the app's own host, forged
 * `X-Forwarded-Host` and `Forwarded` headers do not move the mailed link.
 */
import { expect, test } from "vitest"
import { Hono } from "hono"
import Email from "@tessera/core/providers/email"
import { MemoryAdapter } from "@tessera/testing"
import { authHandler, initAuthConfig, type AuthConfig } from "../../src/index.js"

const APP = "https://app.example.com"
const EVIL = "app.example.com.attacker.test"
const forged = { "x-forwarded-host": EVIL, forwarded: `host=${EVIL};proto=https` }

test("url + trustHost: false: another host is refused with 400, the link stays on the app's origin", async () => {
  const mailed: string[] = []
  const config: AuthConfig = {
    secret: "integration-suite-secret-0123456789abcdef",
    url: `${APP}/auth`,
    trustHost: false,
    adapter: MemoryAdapter(),
    logger: { error: () => {}, warn: () => {} },
    providers: [Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) })],
  }
  const app = new Hono()
  app.use(
    "*",
    initAuthConfig(() => config),
  )
  app.use("/auth/*", authHandler())

  const other = await app.request(`https://${EVIL}/auth/csrf`)
  expect(other.status).toBe(400)
  expect(await other.json()).toMatchObject({ error: "UntrustedHost" })

  const csrf = await app.request(`${APP}/auth/csrf`, { headers: forged })
  expect(csrf.status).toBe(200)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ")
  const response = await app.request(`${APP}/auth/signin/email`, {
    method: "POST",
    headers: {
      ...forged,
      cookie,
      origin: APP,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ csrfToken, email: "victim@example.org" }),
  })
  expect(response.status).toBe(302)
  expect(mailed.map((url) => new URL(url).origin)).toEqual([APP])
})
