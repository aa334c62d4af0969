/**
 * #13 asks for e-mail sign-in limits "per address and per IP". The per-address
 * limit has its attack test in rate-limits.test.ts; this is the per-IP one: an
 * attacker mailing sign-in links to many addresses (mail bombing, spending the
 * app's sender reputation) from one client. Counted by IP only when the app
 * names the proxy header it trusts (`rateLimit.ipHeader`); a forged header
 * otherwise neither counts nor frees anything. Driven through `Auth()`.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { MemoryAdapter } from "@tessera/testing"
import { csrfToken, makeConfig, ORIGIN, post } from "../harness/index.js"

const rateLimitedPage = `${ORIGIN}/auth/signin?error=RateLimited`

function emailConfig(rateLimit: Record<string, unknown>) {
  const sent: string[] = []
  const clock = { now: Date.parse("2030-01-01T00:00:00Z") }
  const { config } = makeConfig({
    adapter: MemoryAdapter(),
    rateLimit: { store: new MemoryRateLimitStore(), now: () => clock.now, ...rateLimit },
    providers: [
      {
        id: "email",
        type: "email",
        name: "Email",
        sendVerificationRequest: ({ identifier }: { identifier: string }) =>
          void sent.push(identifier),
      } as never,
    ],
  })
  return { config, sent, clock }
}

/** One request for a link, from a fresh browser, behind a proxy reporting `ip`. */
async function requestLink(config: AuthConfig, email: string, ip: string) {
  const { token, jar } = await csrfToken(config)
  const response = await Auth(
    post(
      "/auth/signin/email",
      { email, csrfToken: token },
      { jar, headers: { "x-forwarded-for": ip } },
    ),
    config,
  )
  return {
    location: response.headers.get("location"),
    retryAfter: response.headers.get("retry-after"),
  }
}

describe("e-mail sign-in per IP address", () => {
  test("with ipHeader, one client mailing many addresses is stopped at the emailIp limit; other clients are not", async () => {
    const { config, sent } = emailConfig({
      ipHeader: "x-forwarded-for",
      emailIp: { max: 3, window: 3600 },
    })
    for (let i = 0; i < 3; i++) {
      const result = await requestLink(config, `victim${i}@example.com`, "203.0.113.7")
      expect(result.location).toContain("/auth/verify-request")
    }
    const refused = await requestLink(config, "victim9@example.com", "203.0.113.7")
    expect(refused.location).toBe(rateLimitedPage)
    expect(Number(refused.retryAfter)).toBeGreaterThan(0)
    expect(sent).toEqual(["victim0@example.com", "victim1@example.com", "victim2@example.com"])
    // Another client, as the proxy reports it, still gets its link.
    const other = await requestLink(config, "victim9@example.com", "198.51.100.8")
    expect(other.location).toContain("/auth/verify-request")
    expect(sent).toHaveLength(4)
  })

  test("the default is 50 mails per IP address per hour", async () => {
    const { config, sent, clock } = emailConfig({ ipHeader: "x-forwarded-for" })
    for (let i = 0; i < 50; i++) {
      const result = await requestLink(config, `user${i}@example.com`, "203.0.113.7")
      expect(result.location).toContain("/auth/verify-request")
    }
    expect((await requestLink(config, "user50@example.com", "203.0.113.7")).location).toBe(
      rateLimitedPage,
    )
    expect(sent).toHaveLength(50)
    clock.now += 2 * 3600 * 1000
    expect((await requestLink(config, "user50@example.com", "203.0.113.7")).location).toContain(
      "/auth/verify-request",
    )
  })

  test("without ipHeader the client's address is not used: the per-address limit alone applies", async () => {
    const { config, sent } = emailConfig({ emailIp: { max: 1, window: 3600 } })
    for (let i = 0; i < 3; i++) {
      const result = await requestLink(config, `user${i}@example.com`, "203.0.113.7")
      expect(result.location).toContain("/auth/verify-request")
    }
    expect(sent).toHaveLength(3)
  })
})
