/**
 * The language of the built-in pages comes from a request header, and their
 * messages from the URL (`error`, `code`): both are attacker input.
 *
 * - `Accept-Language` only ever selects one of the configured locales: nothing
 *   from it reaches the page (`lang`, text) or a response header
 *   (`Content-Language`), and a huge header costs a bounded amount of work.
 * - `error` and `code` select a message from fixed tables; an unknown or
 *   hostile value gets the generic text and is never shown.
 * - The app's own strings (`theme.messages`) are text: markup in them is
 *   escaped in the pages and in the sign-in e-mail.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { MemoryAdapter } from "@tessera/testing"
import { csrfToken, get, makeConfig, post } from "../harness/index.js"

async function signInPage(acceptLanguage: string, path = "/auth/signin", theme = {}) {
  const { config } = makeConfig({ theme })
  const response = await Auth(get(path, { headers: { "accept-language": acceptLanguage } }), config)
  return { response, html: await response.text() }
}

describe("Accept-Language", () => {
  test.each([
    ['"><script>alert(1)</script>', "<script>alert(1)"],
    ["en-<img src=x onerror=alert(1)>", "<img src=x"],
    ["__proto__, constructor", "__proto__"],
  ])("%j reaches neither the page nor a header", async (header, marker) => {
    const { response, html } = await signInPage(header)
    expect(html).not.toContain(marker)
    expect(html).toContain('<html lang="en" dir="ltr"')
    expect(response.headers.get("content-language")).toBe("en")
  })

  test("a header of 100,000 characters is cut: only its first ranges are read", async () => {
    const header = `${Array.from({ length: 40 }, () => "xx").join(",")},de`
    expect((await signInPage(header)).html).toContain('<html lang="en"')
    expect((await signInPage("de," + "x".repeat(100_000))).html).toContain('<html lang="de"')
  })
})

describe("error and code in the URL", () => {
  test.each([
    ["OAuthCallbackError", "<script>x</script>"],
    ["OAuthCallbackError", "access_denied<script>"],
    ["OAuthAccountNotLinked", "constructor"],
    ["__proto__", "passkey"],
  ])("error=%s&code=%s shows a fixed message only", async (error, code) => {
    const path = `/auth/signin?error=${encodeURIComponent(error)}&code=${encodeURIComponent(code)}`
    const { html } = await signInPage("en", path)
    expect(html).toMatch(/<div class="error" role="alert">[^<]+<\/div>/)
    expect(html).not.toContain(code)
  })
})

describe("theme.messages", () => {
  const evil = '<img src=x onerror="alert(1)">'

  test("markup in an override is escaped on the page", async () => {
    const { html } = await signInPage("en", "/auth/signin", {
      messages: { en: { "signIn.title": evil, "signIn.or": evil } },
    })
    expect(html).not.toContain("<img src=x")
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;")
  })

  test("markup in an override is escaped in the sign-in e-mail", async () => {
    let mail = ""
    const { config } = makeConfig({
      adapter: MemoryAdapter(),
      providers: [
        Email({
          async sendVerificationRequest({ url, theme }) {
            const { verificationMessage } = await import("@tessera/core/providers/nodemailer")
            mail = verificationMessage({ url, host: "app.example", theme }).html
          },
        }),
      ],
      theme: { messages: { en: { "mail.heading": evil, "mail.button": evil } } },
    })
    const { token, jar } = await csrfToken(config)
    await Auth(
      post("/auth/signin/email", { email: "a@example.com", csrfToken: token }, { jar }),
      config,
    )
    expect(mail).toContain("&lt;img src=x")
    expect(mail).not.toContain("<img src=x")
  })
})
