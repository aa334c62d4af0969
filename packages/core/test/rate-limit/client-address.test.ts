/**
 * `rateLimit.clientAddress` through `Auth()`: the per-IP limits count under the
 * address handed over with `withClientAddress(request, address)` (what the
 * integrations do with the framework's peer address), never under a header the
 * client wrote; spellings of one address share one count; the option is
 * checked at configuration.
 */
import { describe, expect, test } from "vitest"
import { Auth, withClientAddress, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { csrfToken, get, makeConfig, ORIGIN, post, setsSession } from "../harness/index.js"

const provider = () =>
  Credentials({
    credentials: { username: {}, password: { type: "password" } },
    authorize: ({ username, password }) =>
      password === "pw" ? { id: String(username), name: String(username) } : null,
  })

function limited(rateLimit: Record<string, unknown> = {}) {
  return makeConfig({
    providers: [provider()],
    rateLimit: {
      credentials: false,
      credentialsIp: { max: 3, window: 900 },
      clientAddress: true,
      ...rateLimit,
    },
  })
}

async function attempt(
  config: AuthConfig,
  address: Parameters<typeof withClientAddress>[1] | undefined,
  password: string,
  headers: Record<string, string> = {},
) {
  const { token, jar } = await csrfToken(config)
  const request = post(
    "/auth/callback/credentials",
    { username: "ada", password, csrfToken: token },
    { jar, headers },
  )
  const response = await Auth(
    address === undefined ? request : withClientAddress(request, address),
    config,
  )
  return { location: response.headers.get("location"), signedIn: setsSession(response) }
}

const rateLimitedPage = `${ORIGIN}/auth/signin?error=RateLimited`

describe("rateLimit.clientAddress", () => {
  test("counts under the handed-over address, whatever X-Forwarded-For says", async () => {
    const { config } = limited()
    for (let i = 0; i < 3; i++)
      await attempt(config, "203.0.113.66", "wrong", { "x-forwarded-for": `10.0.0.${i}` })
    expect(
      (await attempt(config, "203.0.113.66", "pw", { "x-forwarded-for": "10.9.9.9" })).location,
    ).toBe(rateLimitedPage)
    expect((await attempt(config, "192.0.2.10", "pw")).signedIn).toBe(true)
  })

  test("spellings of one address share one count (port, IPv4-mapped IPv6, one /64)", async () => {
    const { config } = limited()
    await attempt(config, "::ffff:203.0.113.66", "wrong")
    await attempt(config, () => "203.0.113.66:51234", "wrong")
    await attempt(config, "203.0.113.66", "wrong")
    expect((await attempt(config, "[::ffff:cb00:7142]:80", "pw")).location).toBe(rateLimitedPage)

    const v6 = limited().config
    await attempt(v6, "2001:db8:1:2::1", "wrong")
    await attempt(v6, "2001:db8:1:2:ffff::9", "wrong")
    await attempt(v6, "2001:db8:1:2::abcd", "wrong")
    expect((await attempt(v6, "2001:0db8:0001:0002::7", "pw")).location).toBe(rateLimitedPage)
  })

  test("no address (none handed over, unreadable, or its function threw): no per-IP count, a warning once", async () => {
    const { config, log } = limited()
    const none = [
      undefined,
      "",
      "unknown",
      () => undefined,
      () => {
        throw new Error("no address")
      },
    ]
    for (const address of none) await attempt(config, address, "wrong")
    expect((await attempt(config, undefined, "pw")).signedIn).toBe(true)
    expect(log.warnings.filter((code) => code === "rate-limit-client-address-missing")).toEqual([
      "rate-limit-client-address-missing",
    ])
  })

  test("off by default: a handed-over address keys nothing", async () => {
    const { config } = limited({ clientAddress: undefined })
    let asked = 0
    for (let i = 0; i < 5; i++) await attempt(config, () => (asked++, "203.0.113.66"), "wrong")
    expect((await attempt(config, "203.0.113.66", "pw")).signedIn).toBe(true)
    expect(asked).toBe(0)
  })

  test("a boolean, and not with ipHeader", async () => {
    for (const rateLimit of [
      { clientAddress: "yes" },
      { clientAddress: 1 },
      { clientAddress: true, ipHeader: "x-forwarded-for" },
    ]) {
      const { config, log } = makeConfig({ rateLimit: rateLimit as never })
      const response = await Auth(get("/auth/session"), config)
      expect(response.status).toBe(500)
      expect(log.errors[0]?.message).toMatch(/rateLimit\.clientAddress/)
    }
    // `false` is the default spelled out.
    const { config } = makeConfig({ rateLimit: { clientAddress: false, ipHeader: "x-real-ip" } })
    expect((await Auth(get("/auth/session"), config)).status).toBe(200)
  })
})
