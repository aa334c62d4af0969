/**
 * Built-in pages: sign-in (a section per provider, "or" between methods, one
 * e-mail field for e-mail links and passkeys, credentials fields, CSRF, error
 * messages, pending labels), sign-out (signed in or not), error (statuses and
 * the way on), verify-request; the theme and its contrast; custom pages; every
 * interpolated value escaped. Languages are in i18n.test.ts, the rendered pages
 * in Chromium in browser.test.ts.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import Email from "@tessera/core/providers/email"
import Passkey from "@tessera/core/providers/passkey"
import WebAuthn from "@tessera/core/providers/webauthn"
import { MemoryAdapter } from "@tessera/testing"
import {
  ORIGIN,
  credentialsProvider,
  csrfToken,
  get,
  makeConfig,
  oauthProvider,
  signIn,
} from "../harness/index.js"

const github = oauthProvider()
const gitlab = { ...github, id: "gitlab", name: "GitLab" }

async function page(path: string, overrides = {}) {
  const { config } = makeConfig(overrides)
  const response = await Auth(get(path), config)
  return { response, html: await response.text() }
}

describe("sign-in page", () => {
  test("a section per provider in configuration order, each with its name", async () => {
    const { response, html } = await page("/auth/signin", {
      providers: [github, credentialsProvider(), gitlab],
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const order = ["Sign in with GitHub", "Sign in with Credentials", "Sign in with GitLab"].map(
      (t) => html.indexOf(t),
    )
    expect(order.every((i) => i > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(html).toContain(
      `<form class="provider" action="${ORIGIN}/auth/signin/github" method="POST" data-provider="github">`,
    )
    expect(html).toContain(
      `<form class="provider" action="${ORIGIN}/auth/callback/credentials" method="POST">`,
    )
  })

  test('"or" between methods; OAuth buttons side by side form one method', async () => {
    const { html } = await page("/auth/signin", {
      providers: [github, gitlab, credentialsProvider()],
    })
    const divider = '<p class="divider">or</p>'
    expect(html.split(divider)).toHaveLength(2)
    expect(html.indexOf(divider)).toBeGreaterThan(html.indexOf("Sign in with GitLab"))
    expect(html.indexOf(divider)).toBeLessThan(html.indexOf("Sign in with Credentials"))
    expect((await page("/auth/signin", { providers: [github] })).html).not.toContain(divider)
  })

  test("buttons carry the label shown while their request runs", async () => {
    const { html } = await page("/auth/signin", { providers: [github, credentialsProvider()] })
    expect(html).toContain(
      '<button type="submit" data-pending="Signing in…">\n<span data-label>Sign in with GitHub</span>\n</button>',
    )
    expect(html).toContain(
      '<button type="submit" data-pending="Signing in…">Sign in with Credentials</button>',
    )
  })

  test("pages come out one element per line", async () => {
    const { html } = await page("/auth/signin", { providers: [github, credentialsProvider()] })
    const body = html.slice(html.indexOf("<body>"))
    for (const line of body.split("\n")) expect(line, line).toMatch(/^<[^<]*(<\/[a-z0-9]+>)?$/)
  })

  test("every page asks for no favicon: an empty inline icon", async () => {
    for (const path of ["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"])
      expect((await page(path)).html).toContain('<link rel="icon" href="data:,">')
  })

  test("credentials fields come from the provider's definition", async () => {
    const provider = Credentials({
      credentials: {
        username: {
          label: "Your name",
          placeholder: "jsmith",
          required: true,
          autocomplete: "username",
        },
        password: { label: "Password", type: "password" },
        code: { type: "text", pattern: "[0-9]{6}", inputmode: "numeric", maxlength: 6 },
      },
      authorize: () => null,
    })
    const { html } = await page("/auth/signin", { providers: [provider] })
    expect(html).toContain(
      '<label for="input-username-for-credentials-provider">Your name</label>\n<input id="input-username-for-credentials-provider" name="username" type="text" placeholder="jsmith" required autocomplete="username">',
    )
    expect(html).toContain(
      '<input id="input-password-for-credentials-provider" name="password" type="password">',
    )
    expect(html).toContain('<label for="input-code-for-credentials-provider">code</label>')
    expect(html).toContain(
      'name="code" type="text" pattern="[0-9]{6}" inputmode="numeric" maxlength="6">',
    )
  })

  test("every form carries the CSRF token of the cookie set with the page, and the callback URL", async () => {
    const { config } = makeConfig({ providers: [github, credentialsProvider()] })
    const response = await Auth(get("/auth/signin?callbackUrl=%2Fnext"), config)
    const html = await response.text()
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("tessera.csrf-token="))!
    const token = decodeURIComponent(cookie.split(";")[0]!.split("=")[1]!).split("|")[0]!
    const hidden = html.match(/name="csrfToken" value="([0-9a-f]{64})"/g)!
    expect(hidden).toHaveLength(2)
    for (const h of hidden) expect(h).toContain(token)
    expect(html.match(new RegExp(`name="callbackUrl" value="${ORIGIN}/next"`, "g"))).toHaveLength(2)
  })

  test("reuses the CSRF cookie the browser already has", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const response = await Auth(get("/auth/signin", { jar }), config)
    expect(await response.text()).toContain(`value="${token}"`)
    expect(response.headers.getSetCookie().some((c) => c.startsWith("tessera.csrf-token="))).toBe(
      false,
    )
  })

  const documented: Record<string, string> = {
    Signin:
      "The sign-in form expired, or your browser blocked its cookie. Reload the page and try again.",
    OAuthSignin:
      "Signing in with that provider could not be started. Try again, or choose another way to sign in.",
    OAuthCallbackError:
      "Signing in with that provider did not work. Try again, or choose another way to sign in.",
    OAuthCreateAccount:
      "Your account could not be created. Try again, or choose another way to sign in.",
    EmailCreateAccount:
      "Your account could not be created. Try again, or choose another way to sign in.",
    Callback: "Sign-in did not work. Try again, or choose another way to sign in.",
    OAuthAccountNotLinked:
      "This email address already belongs to an account. Sign in the way you did before, then link this sign-in method from your account.",
    EmailSignin: "The email could not be sent. Check the address and try again.",
    CredentialsSignin: "Sign-in failed. Check that the details you entered are correct.",
    SessionRequired: "Please sign in to access this page.",
  }

  test.each(Object.entries(documented))("error=%s shows its message", async (error, message) => {
    const { html } = await page(`/auth/signin?error=${error}`)
    expect(html).toContain(`<div class="error" role="alert">${message}</div>`)
  })

  test.each([
    ["OAuthCallbackError", "access_denied", "Sign-in was cancelled, or the provider refused it."],
    ["OAuthAccountNotLinked", "passkey", "An account already uses this email address."],
  ])("error=%s&code=%s has a message of its own", async (error, code, message) => {
    const { html } = await page(`/auth/signin?error=${error}&code=${code}`)
    expect(html).toContain(`<div class="error" role="alert">${message}`)
  })

  const generic =
    '<div class="error" role="alert">Unable to sign in. Try again, or choose another way to sign in.</div>'

  test("an unknown or hostile error value shows the generic message and is not reflected", async () => {
    const { html } = await page(
      `/auth/signin?error=${encodeURIComponent("<script>alert(1)</script>")}`,
    )
    expect(html).toContain(generic)
    expect(html).not.toContain("<script>alert(1)")
    for (const key of ["__proto__", "toString", "constructor", "default"]) {
      const { html: inherited } = await page(`/auth/signin?error=${key}`)
      expect(inherited).toContain(generic)
    }
  })

  test("an unknown or hostile code falls back to the error's own message", async () => {
    for (const code of ["__proto__", "<b>x</b>", "credentials", "access_denied:x"]) {
      const { html } = await page(
        `/auth/signin?error=OAuthCallbackError&code=${encodeURIComponent(code)}`,
      )
      expect(html).toContain(
        '<div class="error" role="alert">Signing in with that provider did not work.',
      )
      expect(html).not.toContain("<b>x</b>")
    }
  })

  test("no error, no alert", async () => {
    const { html } = await page("/auth/signin")
    expect(html).not.toContain('role="alert"')
  })
})

describe("one e-mail field for e-mail links and passkeys", () => {
  const email = () => Email({ sendVerificationRequest: () => {} })

  test("e-mail and passkey providers share one field, with passkey autofill on it", async () => {
    for (const providers of [
      [email(), Passkey()],
      [Passkey(), email()],
    ]) {
      const { html } = await page("/auth/signin", { adapter: MemoryAdapter(), providers })
      expect(html.match(/<input[^>]*type="email"/g)).toHaveLength(1)
      expect(html).toContain(
        `<form class="provider" id="signin-email" action="${ORIGIN}/auth/signin/email" method="POST">`,
      )
      expect(html).toContain(
        '<input id="input-email-for-email-provider" type="email" name="email" placeholder="email@example.com" required autocomplete="username webauthn">',
      )
      // The passkey button joins the e-mail form; without JavaScript it posts to signin/passkey.
      expect(html).toMatch(
        new RegExp(
          `<button type="submit" form="signin-email" formaction="${ORIGIN}/auth/signin/passkey" formnovalidate data-pending="Waiting for your passkey…" data-webauthn-provider="passkey" data-auth-url="${ORIGIN}/auth" data-conditional-ui [^>]*>Sign in with a passkey</button>`,
        ),
      )
      expect(html).not.toContain("input-email-for-passkey-provider")
      // The e-mail form first (its field on top), "or", then the passkey button.
      expect(html.indexOf('id="signin-email"')).toBeLessThan(html.indexOf('form="signin-email"'))
      expect(html.split('<p class="divider">or</p>')).toHaveLength(2)
    }
  })

  test("without autofill the shared field asks for an e-mail address only", async () => {
    const { html } = await page("/auth/signin", {
      adapter: MemoryAdapter(),
      providers: [email(), WebAuthn({ enableConditionalUI: false })],
    })
    expect(html.match(/<input[^>]*type="email"/g)).toHaveLength(1)
    expect(html).toContain('required autocomplete="email">')
    expect(html).not.toMatch(/<[a-z]+ [^>]*data-conditional-ui/)
  })

  test("a passkey provider with fields of its own keeps its own form", async () => {
    const passkey = Passkey({
      formFields: {
        email: { label: "Email", type: "email", autocomplete: "username webauthn" },
        name: { label: "Name" },
      },
    })
    const { html } = await page("/auth/signin", {
      adapter: MemoryAdapter(),
      providers: [email(), passkey],
    })
    expect(html.match(/<input[^>]*type="email"/g)).toHaveLength(2)
    expect(html).not.toContain('form="signin-email"')
    expect(html).toContain('data-webauthn-provider="passkey"')
  })

  test("at an IP address the passkey button is off and a note says to use localhost", async () => {
    const { config } = makeConfig({ adapter: MemoryAdapter(), providers: [email(), Passkey()] })
    const response = await Auth(get("/auth/signin", { origin: "http://127.0.0.1:3000" }), config)
    const html = await response.text()
    expect(html).toContain(
      '<p class="notice">Passkeys don&#39;t work at an IP address such as 127.0.0.1. Open this page at localhost or at the site&#39;s domain name instead.</p>',
    )
    expect(html).toMatch(/<button [^>]*data-webauthn-provider="passkey"[^>]* disabled>/)
    expect(html).not.toMatch(/<[a-z]+ [^>]*data-conditional-ui/)
    // At localhost, neither.
    const local = await (await Auth(get("/auth/signin"), config)).text()
    expect(local).not.toContain('class="notice"')
    expect(local).not.toMatch(/ disabled>/)
  })
})

describe("sign-out page", () => {
  test("signed in: a confirm form POSTing to signout with the CSRF token, and a way back", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    const { token } = await csrfToken(config, jar)
    const response = await Auth(get("/auth/signout?callbackUrl=%2Fbye", { jar }), config)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain("Are you sure you want to sign out?")
    expect(html).toContain(
      [
        `<form action="${ORIGIN}/auth/signout" method="POST">`,
        `<input type="hidden" name="csrfToken" value="${token}">`,
        `<input type="hidden" name="callbackUrl" value="${ORIGIN}/bye">`,
        `<button type="submit" data-pending="Signing out…">Sign out</button>`,
        `</form>`,
      ].join("\n"),
    )
    expect(html).toContain(`<div class="links">\n<a href="${ORIGIN}/bye">Cancel</a>\n</div>`)
  })

  test.each(["jwt", "database"] as const)(
    "nobody signed in (%s sessions): says so, no form, a way back and a way to sign in",
    async (strategy) => {
      const { config } = makeConfig({ adapter: MemoryAdapter(), session: { strategy } })
      const response = await Auth(get("/auth/signout?callbackUrl=%2Fbye"), config)
      expect(response.status).toBe(200)
      const html = await response.text()
      expect(html).toContain("<p>You are not signed in.</p>")
      expect(html).not.toContain("<form")
      expect(html).toContain(`<a class="button" href="${ORIGIN}/bye">Go back</a>`)
      expect(html).toContain(
        `<a href="${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/bye`)}">Sign in</a>`,
      )
    },
  )

  test("a session cookie that no longer decodes counts as nobody signed in", async () => {
    const { config } = makeConfig()
    const response = await Auth(
      get("/auth/signout", { headers: { cookie: "tessera.session-token=garbage" } }),
      config,
    )
    expect(await response.text()).toContain("You are not signed in.")
  })
})

describe("error page", () => {
  test.each([
    ["Configuration", 500, "Server error"],
    ["AccessDenied", 403, "Access denied"],
    ["Verification", 403, "The sign-in link is no longer valid"],
    // Unknown or missing: the generic page, and the page itself worked (200, as in Auth.js).
    ["Whatever", 200, "Something went wrong"],
    ["", 200, "Something went wrong"],
    ["toString", 200, "Something went wrong"],
    [undefined, 200, "Something went wrong"],
  ])("error=%s -> %i", async (error, status, text) => {
    const { response, html } = await page(
      error === undefined ? "/auth/error" : `/auth/error?error=${error}`,
    )
    expect(response.status).toBe(status)
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(html).toContain(text)
  })

  test("AccessDenied and Verification link back to sign-in; Configuration links out to the home page", async () => {
    expect((await page("/auth/error?error=AccessDenied")).html).toContain(
      `<a class="button" href="${ORIGIN}/auth/signin">Sign in</a>`,
    )
    expect((await page("/auth/error?error=Verification")).html).toContain(
      `href="${ORIGIN}/auth/signin"`,
    )
    const configuration = (await page("/auth/error?error=Configuration")).html
    expect(configuration).not.toContain("/auth/signin")
    expect(configuration).toContain(`<a class="button" href="${ORIGIN}/">Go to the home page</a>`)
    expect(
      (await page("/auth/error?error=AccessDenied", { pages: { signIn: "/login" } })).html,
    ).toContain(`href="${ORIGIN}/login"`)
  })

  test("the message is announced and says what to do next", async () => {
    expect((await page("/auth/error?error=AccessDenied")).html).toContain(
      '<p role="alert">You do not have permission to sign in. If you think this is a mistake, contact the site&#39;s owner, or sign in with another account.</p>',
    )
  })

  test("a broken configuration's page links out too: to its canonical origin, else to /", async () => {
    const broken = { providers: [], secret: "short" }
    const page = await Auth(get("/auth/signin"), broken)
    expect(page.status).toBe(500)
    const html = await page.text()
    expect(html).toContain("Server error")
    expect(html).toContain('<a class="button" href="/">Go to the home page</a>')
    const pinned = await Auth(get("/auth/signin"), { ...broken, url: "https://app.example/auth" })
    expect(await pinned.text()).toContain('href="https://app.example/"')
  })
})

describe("verify-request page", () => {
  test("tells the user to check their e-mail, with a link home", async () => {
    const { response, html } = await page("/auth/verify-request")
    expect(response.status).toBe(200)
    expect(html).toContain("<h1>Check your email</h1>")
    expect(html).toContain(`<a class="button" href="${ORIGIN}">Back to localhost:3000</a>`)
  })
})

describe("theme", () => {
  test.each([
    ["auto", "light dark"],
    ["dark", "dark"],
    ["light", "light"],
  ])("colorScheme %s", async (scheme, meta) => {
    const { html } = await page("/auth/signin", { theme: { colorScheme: scheme } })
    expect(html).toContain(`<html lang="en" dir="ltr" class="${scheme}">`)
    expect(html).toContain(`<meta name="color-scheme" content="${meta}">`)
  })

  test("colorScheme defaults to auto", async () => {
    expect((await page("/auth/signin")).html).toContain('<html lang="en" dir="ltr" class="auto">')
  })

  test("brandColor, buttonText and logo", async () => {
    const { html } = await page("/auth/signin", {
      theme: {
        brandColor: "#ff0066",
        buttonText: "rgb(1, 2, 3)",
        logo: "https://cdn.example/logo.svg",
      },
    })
    expect(html).toContain(":root{--brand:#ff0066}")
    expect(html).toContain(":root{--button-text:rgb(1, 2, 3)}")
    expect(html).toContain('<img class="logo" src="https://cdn.example/logo.svg" alt="">')
  })

  test.each([
    ["#ffd84d", "#000"],
    ["#9BE9A8", "#000"],
    ["rgb(250, 250, 210)", "#000"],
    ["hsl(60 100% 90%)", "#000"],
    ["yellow", "#000"],
    ["#1d4ed8", "#fff"],
    ["#24292f", "#fff"],
    ["rgba(0,0,139,0.9)", "#fff"],
    ["navy", "#fff"],
  ])("brandColor %s: the button text is %s, whichever contrasts more", async (brand, text) => {
    const { html } = await page("/auth/signin", { theme: { brandColor: brand } })
    expect(html).toContain(`:root{--button-text:${text}}`)
  })

  test("an explicit buttonText wins; no brandColor keeps the default white on blue", async () => {
    const { html } = await page("/auth/signin", {
      theme: { brandColor: "#ffd84d", buttonText: "#333" },
    })
    expect(html).toContain(":root{--button-text:#333}")
    expect(html).not.toContain("--button-text:#000")
    expect((await page("/auth/signin")).html).not.toContain(":root{--button-text:")
  })

  test("an OAuth provider's light brand colour gets dark text on its button", async () => {
    const { html } = await page("/auth/signin", {
      providers: [
        { ...github, style: { brandColor: "#ffd21e" } },
        { ...gitlab, style: { bg: "#24292f" } },
      ],
    })
    expect(html).toContain(
      '[data-provider="github"] button{--provider-bg:#ffd21e;--provider-text:#000}',
    )
    expect(html).toContain(
      '[data-provider="gitlab"] button{--provider-bg:#24292f;--provider-text:#fff}',
    )
  })

  test("a colour that is not a plain colour cannot break out of the stylesheet", async () => {
    const { html } = await page("/auth/signin", {
      theme: {
        brandColor: "red}</style><script>alert(1)</script>",
        buttonText: "url(javascript:x)",
      },
    })
    expect(html).not.toContain("<script>alert(1)")
    expect(html).toContain(":root{--brand:inherit}")
    expect(html).toContain(":root{--button-text:inherit}")
  })

  test("the theme applies to every page", async () => {
    for (const path of [
      "/auth/signout",
      "/auth/error?error=AccessDenied",
      "/auth/verify-request",
    ]) {
      const { html } = await page(path, { theme: { colorScheme: "dark", logo: "/logo.png" } })
      expect(html).toContain('class="dark"')
      expect(html).toContain('src="/logo.png"')
    }
  })
})

describe("custom pages", () => {
  test.each([
    [
      "/auth/signin?callbackUrl=%2Fnext&error=CredentialsSignin&code=credentials",
      { signIn: "/login" },
      `${ORIGIN}/login?callbackUrl=${encodeURIComponent(`${ORIGIN}/next`)}&error=CredentialsSignin&code=credentials`,
    ],
    [
      "/auth/signout?callbackUrl=%2Fbye",
      { signOut: "/logout" },
      `${ORIGIN}/logout?callbackUrl=${encodeURIComponent(`${ORIGIN}/bye`)}`,
    ],
    ["/auth/error?error=AccessDenied", { error: "/oops" }, `${ORIGIN}/oops?error=AccessDenied`],
    [
      "/auth/verify-request?provider=email&type=email",
      { verifyRequest: "/check-mail" },
      `${ORIGIN}/check-mail?provider=email&type=email`,
    ],
  ])("GET %s redirects to the configured page", async (path, pages, location) => {
    const { response } = await page(path, { pages })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(location)
  })

  test("a hostile callbackUrl is filtered before it reaches the custom page", async () => {
    const { response } = await page("/auth/signin?callbackUrl=https%3A%2F%2Fevil.example", {
      pages: { signIn: "/login" },
    })
    expect(response.headers.get("location")).toBe(
      `${ORIGIN}/login?callbackUrl=${encodeURIComponent(ORIGIN)}`,
    )
  })
})

describe("escaping", () => {
  const evil = `"><script>alert('x')</script>&`

  test("provider names, field labels, placeholders and values are escaped", async () => {
    const provider = Credentials({
      name: evil,
      credentials: { username: { label: evil, placeholder: evil, value: evil } },
      authorize: () => null,
    })
    const { html } = await page("/auth/signin", {
      providers: [provider, { ...github, name: evil }],
    })
    expect(html).not.toContain("<script>alert")
    expect(html).toContain("&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;")
  })

  test("a same-origin callbackUrl with markup is escaped in the hidden input", async () => {
    const { html } = await page(`/auth/signin?callbackUrl=${encodeURIComponent(`/x?q=${evil}`)}`)
    expect(html).not.toContain("<script>alert")
    const value = html.match(/name="callbackUrl" value="([^"]*)"/)![1]!
    expect(value.startsWith(`${ORIGIN}/x?q=`)).toBe(true)
  })

  test("the logo URL cannot leave its attribute", async () => {
    const { html } = await page("/auth/signin", { theme: { logo: `x" onerror="alert(1)` } })
    expect(html).toContain('src="x&quot; onerror=&quot;alert(1)"')
  })

  test("a hostile Host (with trustHost) is escaped where the page shows it", async () => {
    const { config } = makeConfig()
    const response = await Auth(
      get("/auth/verify-request", { headers: { "x-forwarded-host": "a.example" } }),
      config,
    )
    expect(await response.text()).toContain(
      '<a class="button" href="http://a.example">Back to a.example</a>',
    )
  })
})
