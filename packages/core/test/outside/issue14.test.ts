/**
 * Issue 14 ("First hour with Tessera"), the built-in pages and e-mails, tested
 * as an outsider would: from the text and docs/pages.md only, through
 * `Auth()` with real `Request`s.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import Nodemailer from "@tessera/core/providers/nodemailer"
import Passkey from "@tessera/core/providers/passkey"
import { MemoryAdapter } from "@tessera/testing"
import { Jar, SECRET, get, makeConfig, oauthProvider, post } from "../harness/index.js"

const LANGUAGES = ["en", "de", "fr", "es", "pt", "ru", "ja", "zh"] as const

function page(config: AuthConfig, path: string, language?: string) {
  return Auth(get(path, { headers: language ? { "accept-language": language } : {} }), config)
}

function htmlAttributes(html: string): { lang?: string; dir?: string } {
  const tag = /<html\b[^>]*>/.exec(html)?.[0] ?? ""
  return { lang: /\blang="([^"]*)"/.exec(tag)?.[1], dir: /\bdir="([^"]*)"/.exec(tag)?.[1] }
}

const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1]

describe("translated pages", () => {
  const { config } = makeConfig({ providers: [oauthProvider()] })

  test("each of the eight shipped languages answers the sign-in page in that language", async () => {
    const titles = new Set<string | undefined>()
    for (const language of LANGUAGES) {
      const response = await page(config, "/auth/signin", language)
      const html = await response.text()
      expect(htmlAttributes(html)).toEqual({ lang: language, dir: "ltr" })
      expect(response.headers.get("content-language")).toBe(language)
      titles.add(title(html))
    }
    expect(titles.size).toBe(LANGUAGES.length)
  })

  test.each([
    ["de-CH,de;q=0.9,en;q=0.5", "de"],
    ["fr-CA", "fr"],
    ["en;q=0.1, ja;q=0.9", "ja"],
    ["pt-BR", "pt"],
    ["zh-Hans-CN", "zh"],
    ["tlh, xx;q=0.5", "en"],
    ["*", "en"],
  ])("Accept-Language %j is answered in %s", async (header, expected) => {
    const html = await (await page(config, "/auth/signin", header)).text()
    expect(htmlAttributes(html).lang).toBe(expected)
  })

  test("a malformed Accept-Language still gets a page, not an error", async () => {
    const response = await page(config, "/auth/signin", ";;;q=x, -, de;q=abc, ,,")
    expect(response.status).toBe(200)
    expect(["en", "de"]).toContain(htmlAttributes(await response.text()).lang)
  })

  test("the `locale` option fixes the language whatever the browser asks", async () => {
    const { config: fixed } = makeConfig({ providers: [oauthProvider()], theme: { locale: "fr" } })
    for (const path of [
      "/auth/signin",
      "/auth/signout",
      "/auth/error?error=Verification",
      "/auth/verify-request",
    ]) {
      const html = await (await page(fixed, path, "de")).text()
      expect(htmlAttributes(html).lang, path).toBe("fr")
    }
  })

  test("every built-in page follows Accept-Language, the error page too", async () => {
    for (const path of [
      "/auth/signout",
      "/auth/error?error=AccessDenied",
      "/auth/verify-request",
    ]) {
      const html = await (await page(config, path, "ru")).text()
      expect(htmlAttributes(html).lang, path).toBe("ru")
    }
  })

  test("right to left: an Arabic catalog of the app's own gives dir=rtl", async () => {
    const { config: arabic } = makeConfig({
      providers: [oauthProvider()],
      theme: { locales: ["en", "ar"], messages: { ar: { "signIn.title": "تسجيل الدخول" } } },
    })
    const response = await page(arabic, "/auth/signin", "ar-EG")
    const html = await response.text()
    expect(htmlAttributes(html)).toEqual({ lang: "ar", dir: "rtl" })
    expect(title(html)).toBe("تسجيل الدخول")
  })

  test("theme.messages overrides one string of a shipped language, the rest stay translated", async () => {
    const { config: custom } = makeConfig({
      providers: [oauthProvider()],
      theme: { messages: { de: { "signIn.title": "Bei Acme anmelden" } } },
    })
    const german = await (await page(custom, "/auth/signin", "de")).text()
    expect(title(german)).toBe("Bei Acme anmelden")
    expect(german).toContain("Mit GitHub anmelden")
  })

  test("the sign-in e-mail is written in the language of the request that asked for it", async () => {
    const sent: { theme: { locale?: string } }[] = []
    const { config: email } = makeConfig({
      adapter: MemoryAdapter(),
      providers: [
        Nodemailer({
          server: "smtp://localhost:25",
          from: "auth@app.example",
          sendVerificationRequest: async (params) => void sent.push(params as never),
        }),
      ],
    })
    const jar = new Jar()
    const csrf = await Auth(get("/auth/csrf", { jar }), email)
    jar.update(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await Auth(
      post(
        "/auth/signin/nodemailer",
        { email: "ada@example.com", csrfToken },
        { jar, headers: { "accept-language": "es-MX,es;q=0.9" } },
      ),
      email,
    )
    expect(response.status).toBe(302)
    expect(sent).toHaveLength(1)
    expect(sent[0].theme.locale).toBe("es")
  })
})

describe("the sign-in page", () => {
  test("one e-mail field serves the e-mail link and the passkey, with passkey autofill", async () => {
    const { config } = makeConfig({
      adapter: MemoryAdapter(),
      experimental: { enableWebAuthn: true },
      providers: [
        Nodemailer({ server: "smtp://localhost:25", from: "auth@app.example" }),
        Passkey({}),
      ],
    })
    const html = await (await page(config, "/auth/signin")).text()
    const emailInputs = html.match(/<input\b[^>]*type="email"[^>]*>/g) ?? []
    expect(emailInputs).toHaveLength(1)
    expect(emailInputs[0]).toContain('autocomplete="username webauthn"')
  })

  test("an error is announced (role=alert) and a cancelled IdP sign-in says what to do next", async () => {
    const { config } = makeConfig({ providers: [oauthProvider()] })
    const html = await (
      await page(config, "/auth/signin?error=OAuthCallbackError&code=access_denied")
    ).text()
    const alert = /<[^>]+role="alert"[^>]*>([\s\S]*?)<\//.exec(html)?.[1] ?? ""
    expect(alert).not.toBe("")
    expect(alert).not.toContain("Try signing in with a different account")
  })

  test("the pages request no favicon.ico", async () => {
    const { config } = makeConfig({ providers: [oauthProvider(), Credentials()] })
    for (const path of ["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"]) {
      const html = await (await page(config, path)).text()
      expect(html, path).toMatch(/<link rel="icon" href="data:/)
    }
  })

  test("the sign-out page says nobody is signed in, with a way back", async () => {
    const { config } = makeConfig()
    const html = await (await page(config, "/auth/signout")).text()
    expect(html).toContain("You are not signed in.")
    expect(html).toMatch(/<a [^>]*href="http:\/\/localhost:3000\/?"/)
  })

  test("the Configuration error page links out", async () => {
    const { config } = makeConfig()
    const response = await page(config, "/auth/error?error=Configuration")
    expect(await response.text()).toMatch(/<a [^>]*href="http:\/\/localhost:3000\/?"/)
  })
})

test("a secret of the documented length is accepted (npx tessera secret prints such)", async () => {
  expect(SECRET.length).toBeGreaterThanOrEqual(32)
})
