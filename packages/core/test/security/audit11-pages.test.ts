/**
 * Audit 11 (issue 9, page headers): the built-in pages the first tests did not
 * visit (error pages with 403 and 500, the one-time-code form, a provider's own
 * sign-in page, the `confirmLink` page whose URL holds the token) carry the same
 * headers: never cached, never framed, only their own inline code, no sniffing.
 * The `confirmLink` page keeps `same-origin` (its form must send `Origin`), and
 * the answer that uses the link sends no Referer at all.
 */
import { expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import Passkey from "@tessera/core/providers/passkey"
import { MemoryAdapter } from "@tessera/testing"
import { csrfToken, get, post, SECRET } from "../harness/index.js"

function app() {
  const mailed: string[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    logger: { error() {}, warn() {} },
    providers: [
      Email({
        id: "email",
        confirmLink: true,
        sendVerificationRequest: ({ url }) => void mailed.push(url),
      }),
      Email({ id: "code", method: "code", sendVerificationRequest: () => {} }),
      Passkey(),
    ],
  }
  return { config, mailed }
}

function expectPageHeaders(response: Response, where: string) {
  const headers = response.headers
  expect(headers.get("content-type"), where).toContain("text/html")
  expect(headers.get("cache-control"), where).toContain("no-store")
  expect(headers.get("x-frame-options"), where).toBe("DENY")
  expect(headers.get("x-content-type-options"), where).toBe("nosniff")
  const csp = headers.get("content-security-policy") ?? ""
  expect(csp, where).toContain("frame-ancestors 'none'")
  expect(csp, where).toMatch(/script-src 'nonce-[^']{22,}'/)
}

test.each([
  ["/auth/signin?error=OAuthSignin", 200],
  ["/auth/error?error=AccessDenied", 403],
  ["/auth/error?error=Configuration", 500],
  ["/auth/verify-request?provider=code&type=email&email=a%40example.com", 200],
  ["/auth/signin/email", 200],
  ["/auth/signin/passkey", 200],
])("%s: the page headers", async (path, status) => {
  const response = await Auth(get(path), app().config)
  expect(response.status).toBe(status)
  expectPageHeaders(response, path)
})

test("the confirmLink page: page headers, same-origin referrers; using the link: no Referer at all", async () => {
  const { config, mailed } = app()
  const { token, jar } = await csrfToken(config)
  await Auth(
    post("/auth/signin/email", { email: "a@example.com", csrfToken: token }, { jar }),
    config,
  )
  const link = new URL(mailed[0]!)
  const page = await Auth(get(link.pathname + link.search, { jar }), config)
  expect(page.status).toBe(200)
  expectPageHeaders(page, "confirm page")
  expect(page.headers.get("referrer-policy")).toBe("same-origin")
  jar.update(page)
  const fields = Object.fromEntries(
    [...(await page.text()).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
      (m) => [m[1]!, m[2]!.replace(/&amp;/g, "&").replace(/&#x2F;|&#47;/g, "/")],
    ),
  )
  const used = await Auth(post(link.pathname, fields, { jar }), config)
  expect(used.status).toBe(302)
  expect(used.headers.get("location")).not.toContain("error")
  expect(used.headers.getSetCookie().some((c) => c.startsWith("tessera.session-token="))).toBe(true)
  expect(used.headers.get("referrer-policy")).toBe("no-referrer")
})
