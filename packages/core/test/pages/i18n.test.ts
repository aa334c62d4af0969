/**
 * The language of the built-in pages and of the sign-in e-mail: negotiated from
 * `Accept-Language` (RFC 4647 lookup, qualities), fixed by `theme.locale`,
 * limited by `theme.locales`, overridden string by string with
 * `theme.messages` (an app's own locale, Arabic, right to left); options
 * checked when the configuration is resolved; every catalog complete, with the
 * English placeholders; nothing from the header reaches the page.
 */
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Nodemailer, { verificationMessage } from "@tessera/core/providers/nodemailer"
import { startMailSink, type MailSink, MemoryAdapter } from "@tessera/testing"
import { BUILT_IN_LOCALES } from "../../src/pages/i18n/localization.js"
import { loadBuiltInCatalog } from "../../src/pages/i18n/catalogs.js"
import { negotiateLocale } from "../../src/pages/i18n/negotiate.js"
import { textDirection } from "../../src/pages/i18n/direction.js"
import en from "../../src/pages/i18n/locales/en.js"
import { csrfToken, get, makeConfig, post, signIn } from "../harness/index.js"
import { enableTwoFactor } from "../two-factor/helpers.js"

async function signInPage(
  acceptLanguage: string | undefined,
  overrides: Partial<AuthConfig> = {},
  path = "/auth/signin",
) {
  const { config, log } = makeConfig(overrides)
  const headers: Record<string, string> = acceptLanguage
    ? { "accept-language": acceptLanguage }
    : {}
  const response = await Auth(get(path, { headers }), config)
  const html = await response.text()
  const tag = /<html lang="([^"]*)" dir="([^"]*)"/.exec(html)
  return { response, html, lang: tag?.[1], dir: tag?.[2], log }
}

const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1]

describe("the locale from Accept-Language", () => {
  test.each([
    [undefined, "en", "Sign in"],
    ["de", "de", "Anmelden"],
    ["de-CH", "de", "Anmelden"],
    ["fr-CA,fr;q=0.9,en;q=0.8", "fr", "Connexion"],
    ["xx-YY, es;q=0.5", "es", "Iniciar sesión"],
    ["de;q=0, pt-BR;q=0.8", "pt", "Entrar"],
    ["ru", "ru", "Вход"],
    ["ja-JP", "ja", "ログイン"],
    ["zh-Hans-CN", "zh", "登录"],
    ["ko, *;q=0.1", "en", "Sign in"],
    ["da", "en", "Sign in"],
  ])("%s -> %s", async (header, locale, heading) => {
    const { response, html, lang, dir } = await signInPage(header)
    expect(lang).toBe(locale)
    expect(dir).toBe("ltr")
    expect(response.headers.get("content-language")).toBe(locale)
    expect(html).toContain(`<h1>${heading}</h1>`)
    expect(title(html)).toBe(heading)
  })

  test("a hostile or malformed header is ignored: only configured tags reach the page", async () => {
    for (const header of ['"><script>alert(1)</script>', "de;q=2", "de;q=abc", "x".repeat(5000)]) {
      const { lang, html } = await signInPage(header)
      expect(lang).toBe("en")
      expect(html).not.toContain("<script>alert")
    }
  })

  test("RFC 4647 lookup cuts subtags from the right, skipping a singleton", () => {
    const available = ["en", "zh", "zh-Hant", "pt-BR"]
    expect(negotiateLocale("zh-Hant-TW", available, "en")).toBe("zh-Hant")
    expect(negotiateLocale("zh-x-private", available, "en")).toBe("zh")
    expect(negotiateLocale("PT-br", available, "en")).toBe("pt-BR")
    expect(negotiateLocale("pt", available, "en")).toBe("en")
  })

  test("the other pages and the error page of a broken configuration speak it too", async () => {
    const { config } = makeConfig()
    const headers = { "accept-language": "fr" }
    const signOut = await (await Auth(get("/auth/signout", { headers }), config)).text()
    expect(signOut).toContain("<h1>Déconnexion</h1>")
    const error = await Auth(get("/auth/error?error=Verification", { headers }), config)
    expect(await error.text()).toContain('<html lang="fr"')
    const broken = await Auth(get("/auth/signin", { headers }), { providers: [] } as AuthConfig)
    expect(broken.status).toBe(500)
    expect(await broken.text()).toContain('<html lang="fr"')
  })
})

describe("theme.locale, theme.locales, theme.messages", () => {
  test("theme.locale fixes the language, whatever the browser asks for", async () => {
    const { lang, html } = await signInPage("fr", { theme: { locale: "de" } })
    expect(lang).toBe("de")
    expect(html).toContain("<h1>Anmelden</h1>")
  })

  test("`locale` at the top of the configuration (issue 14's name) is theme.locale", async () => {
    const page = await signInPage("fr", { locale: "de" })
    expect(page.lang).toBe("de")
    expect(page.html).toContain("<h1>Anmelden</h1>")
    // The e-mail follows it too (the theme handed to sendVerificationRequest).
    const sent: string[] = []
    const { config } = makeConfig({
      locale: "ja",
      adapter: MemoryAdapter(),
      providers: [
        Nodemailer({
          server: "smtp://127.0.0.1:1",
          from: "auth@example.com",
          sendVerificationRequest: ({ theme }) => void sent.push(String(theme.locale)),
        }),
      ],
    })
    const { token, jar } = await csrfToken(config)
    const body = { email: "hana@example.com", csrfToken: token }
    await Auth(post("/auth/signin/nodemailer", body, { jar }), config)
    expect(sent).toEqual(["ja"])
    // Both names, agreeing: fine; disagreeing: a configuration error naming both.
    expect((await signInPage("fr", { locale: "de", theme: { locale: "de" } })).lang).toBe("de")
    const clash = await signInPage("fr", { locale: "de", theme: { locale: "es" } })
    expect(clash.response.status).toBe(500)
    expect(clash.log.errors.map((e) => e.message).join("\n")).toContain(
      'locale ("de") and theme.locale ("es") disagree',
    )
    const unknown = await signInPage("fr", { locale: "xx" })
    expect(unknown.response.status).toBe(500)
    expect(unknown.log.errors.map((e) => e.message).join("\n")).toContain("has no strings")
  })

  test("theme.locales limits the choice; the first is the fallback", async () => {
    const theme = { locales: ["es", "pt"] }
    expect((await signInPage("de", { theme })).lang).toBe("es")
    expect((await signInPage("pt-PT", { theme })).lang).toBe("pt")
    expect((await signInPage(undefined, { theme })).lang).toBe("es")
  })

  test("messages override single strings, per locale; the rest stays built in", async () => {
    const theme = {
      messages: { en: { "signIn.title": "Log in" }, de: { "signIn.title": "Einloggen" } },
    }
    const english = await signInPage("en", { theme })
    expect(english.html).toContain("<h1>Log in</h1>")
    const german = await signInPage("de", { theme })
    expect(german.html).toContain("<h1>Einloggen</h1>")
    expect(german.html).toContain("Mit Credentials anmelden")
    // A regional override applies on top of its language's catalog.
    const brazilian = { messages: { "pt-BR": { "signIn.title": "Fazer login" } } }
    const brazil = await signInPage("pt-BR", { theme: brazilian })
    expect(brazil.lang).toBe("pt-BR")
    expect(brazil.html).toContain("<h1>Fazer login</h1>")
    expect(brazil.html).toContain("Entrar com Credentials")
    expect((await signInPage("pt-PT", { theme: brazilian })).lang).toBe("pt")
  })

  test("an app's own locale (Arabic): right to left, its strings, English for the rest", async () => {
    const theme = { messages: { ar: { "signIn.title": "تسجيل الدخول", "signIn.or": "أو" } } }
    const { lang, dir, html } = await signInPage("ar-EG,en;q=0.5", { theme })
    expect(lang).toBe("ar")
    expect(dir).toBe("rtl")
    expect(html).toContain("<h1>تسجيل الدخول</h1>")
    expect(html).toContain("Sign in with Credentials")
    expect((await signInPage("ar", { theme: { locale: "ar", ...theme } })).dir).toBe("rtl")
  })

  test("text direction by language and by script", () => {
    expect(textDirection("ar")).toBe("rtl")
    expect(textDirection("he-IL")).toBe("rtl")
    expect(textDirection("fa")).toBe("rtl")
    expect(textDirection("az-Arab")).toBe("rtl")
    expect(textDirection("ur-Latn")).toBe("ltr")
    expect(textDirection("de")).toBe("ltr")
  })

  test("an override is plain text: markup in it is escaped", async () => {
    const theme = { messages: { en: { "signIn.title": '<img src=x onerror="alert(1)">' } } }
    const { html } = await signInPage("en", { theme })
    expect(html).toContain("<h1>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</h1>")
  })

  test.each([
    [{ locale: "xx" }, 'theme.locale is "xx", which has no strings'],
    [{ locale: "english" }, "theme.locale must be a BCP 47 language tag"],
    [{ locales: [] }, "theme.locales must be a non-empty array"],
    [{ locales: ["en", "tlh"] }, 'theme.locales[1] is "tlh", which has no strings'],
    [{ messages: { en: { "signIn.titel": "x" } } }, 'unknown message key "signIn.titel"'],
    [
      { messages: { en: { "signIn.title": 1 } } },
      'theme.messages["en"]["signIn.title"] must be a string',
    ],
    [
      { messages: { en: { "signIn.with": "Use {name}" } } },
      "uses {name}; this string can use {provider}",
    ],
    [{ messages: { "not a tag": {} } }, 'theme.messages key "not a tag"'],
    [{ messages: { de: {}, DE: {} } }, 'names the locale "de" twice'],
  ])("%j is refused when the configuration is resolved", async (theme, message) => {
    const { response, log } = await signInPage("en", { theme: theme as never })
    expect(response.status).toBe(500)
    expect(log.errors.map((e) => e.message).join("\n")).toContain(message)
  })
})

describe("the catalogs", () => {
  test("docs/pages.md lists every key with its English text", () => {
    const docs = readFileSync(new URL("../../../../docs/pages.md", import.meta.url), "utf8")
    for (const [key, text] of Object.entries(en))
      expect(docs, key).toContain(`| \`${key}\` | ${text.replaceAll("|", "\\|")} |`)
  })

  const placeholders = (text: string) => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort()

  test.each(BUILT_IN_LOCALES)(
    "%s has every key, each with the English placeholders",
    async (locale) => {
      const catalog = await loadBuiltInCatalog(locale)
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort())
      for (const [key, text] of Object.entries(catalog)) {
        expect(text.trim(), `${locale} ${key}`).not.toBe("")
        expect(placeholders(text), `${locale} ${key}`).toEqual(
          placeholders(en[key as keyof typeof en]),
        )
      }
    },
  )
})

describe("the sign-in e-mail", () => {
  let sink: MailSink
  beforeAll(async () => {
    sink = await startMailSink()
  })
  afterAll(async () => {
    await sink?.stop()
  })

  async function mailFor(address: string, acceptLanguage: string, theme = {}) {
    const { config } = makeConfig({
      adapter: MemoryAdapter(),
      providers: [Nodemailer({ server: sink.url, from: "auth@example.com" })],
      theme,
    })
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/signin/nodemailer",
        { email: address, csrfToken: token },
        { jar, headers: { "accept-language": acceptLanguage } },
      ),
      config,
    )
    expect(response.status).toBe(302)
    return sink.waitForMessage((m) => m.to.includes(address))
  }

  test("is written in the language of the page that asked for it", async () => {
    const mail = await mailFor("hana@example.com", "ja")
    expect(mail.subject).toBe("localhost:3000 にログイン")
    expect(mail.text).toContain("このメールに心当たりがない場合は、無視してください。")
    expect(mail.html).toContain('<html lang="ja" dir="ltr">')
  })

  test("with the app's overrides, right to left for Arabic", async () => {
    const theme = { locale: "ar", messages: { ar: { "mail.subject": "تسجيل الدخول إلى {host}" } } }
    const mail = await mailFor("amira@example.com", "en", theme)
    expect(mail.subject).toBe("تسجيل الدخول إلى localhost:3000")
    expect(mail.html).toContain('<html lang="ar" dir="rtl">')
    // What the app did not translate is English.
    expect(mail.text).toContain("If you did not request this email, you can safely ignore it.")
  })

  test("verificationMessage without a locale is English, with readable button text", () => {
    const message = verificationMessage({
      url: "https://app.example/auth/callback/email?token=t",
      host: "app.example",
      theme: { brandColor: "#ffd84d" },
    })
    expect(message.subject).toBe("Sign in to app.example")
    expect(message.html).toContain('<html lang="en" dir="ltr">')
    expect(message.html).toContain("color:#000")
  })
})

describe("the pages of codes and second factors", () => {
  test("the two-factor page and its error, in the browser's language", async () => {
    const { config } = makeConfig({ adapter: MemoryAdapter(), session: { strategy: "jwt" } })
    await enableTwoFactor(config, (await signIn(config)).jar)
    const { jar } = await signIn(config)
    const headers = { "accept-language": "de" }
    const page = await (await Auth(get("/auth/two-factor", { jar, headers }), config)).text()
    expect(page).toContain("<h1>Zwei-Faktor-Authentifizierung</h1>")
    expect(page).toContain(">Erneut anmelden</a>")
    const wrong = await Auth(get("/auth/two-factor?error=TwoFactor", { jar, headers }), config)
    expect(await wrong.text()).toContain(
      '<div id="two-factor-code-error" class="error" role="alert">Dieser Code hat nicht funktioniert. Versuchen Sie es noch einmal.</div>',
    )
  })

  test("the code form and the sign-in errors of rate limits and second factors", async () => {
    const { config } = makeConfig({
      adapter: MemoryAdapter(),
      providers: [Nodemailer({ server: "smtp://127.0.0.1:1", method: "code" })],
    })
    const headers = { "accept-language": "es" }
    const form = await Auth(
      get("/auth/verify-request?provider=nodemailer&type=email&error=RateLimited", { headers }),
      config,
    )
    const html = await form.text()
    expect(html).toContain('<label for="verify-code">Código de inicio de sesión</label>')
    expect(html).toContain(
      'role="alert">Demasiados intentos. Espera unos minutos y vuelve a intentarlo.</div>',
    )
    for (const [error, text] of [
      ["RateLimited", "Zu viele Versuche."],
      ["TwoFactorExpired", "Die Anmeldung hat zu lange gedauert."],
      ["TwoFactor", "Der Code für den zweiten Faktor hat nicht funktioniert."],
    ]) {
      const { html } = await signInPage("de", {}, `/auth/signin?error=${error}`)
      expect(html).toContain(`role="alert">${text}`)
    }
  })

  test("the code e-mail, with and without its link", () => {
    const de = { locale: "de", messages: { de: { "mail.code": "Ihr Anmeldecode:" } } }
    const url = "https://app.example/auth/verify-request?provider=email"
    const both = verificationMessage({ url, host: "app.example", theme: de, code: "12345678" })
    expect(both.text).toContain("Ihr Anmeldecode: 12345678")
    expect(both.text).toContain(url)
    expect(both.html).toContain('<html lang="de" dir="ltr">')
    const only = verificationMessage({ url, host: "app.example", code: "12345678", link: false })
    expect(only.text).toBe(
      "Sign in to app.example\n\nYour sign-in code: 12345678\n\nThe code works once, for 10 minutes. If you did not request this email, you can safely ignore it.\n",
    )
    expect(only.html).not.toContain(url)
  })
})
