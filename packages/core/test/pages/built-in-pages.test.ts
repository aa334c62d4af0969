/**
 * Built-in pages: sign-in (a section per provider, credentials fields, CSRF,
 * error messages), sign-out, error (statuses), verify-request; the theme; custom
 * pages; every interpolated value escaped.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { ORIGIN, credentialsProvider, csrfToken, get, makeConfig } from "../harness/index.js"

const github = {
  id: "github",
  name: "GitHub",
  type: "oauth" as const,
  authorization: "https://gh.example/authorize",
  token: "https://gh.example/token",
  userinfo: "https://gh.example/user",
  clientId: "id",
  clientSecret: "secret",
}
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
      '<label for="input-username-for-credentials-provider">Your name</label><input id="input-username-for-credentials-provider" name="username" type="text" placeholder="jsmith" required autocomplete="username">',
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
    Signin: "Try signing in with a different account.",
    OAuthSignin: "Try signing in with a different account.",
    OAuthCallbackError: "Try signing in with a different account.",
    OAuthCreateAccount: "Try signing in with a different account.",
    EmailCreateAccount: "Try signing in with a different account.",
    Callback: "Try signing in with a different account.",
    OAuthAccountNotLinked:
      "To confirm your identity, sign in with the same account you used originally.",
    EmailSignin: "The e-mail could not be sent. Check the address and try again.",
    CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
    SessionRequired: "Please sign in to access this page.",
  }

  test.each(Object.entries(documented))("error=%s shows its message", async (error, message) => {
    const { html } = await page(`/auth/signin?error=${error}`)
    expect(html).toContain(`<div class="error" role="alert">${message}</div>`)
  })

  test("an unknown or hostile error value shows the generic message and is not reflected", async () => {
    const { html } = await page(
      `/auth/signin?error=${encodeURIComponent("<script>alert(1)</script>")}`,
    )
    expect(html).toContain('<div class="error" role="alert">Unable to sign in.</div>')
    expect(html).not.toContain("<script>alert(1)")
    for (const key of ["__proto__", "toString", "constructor", "default"]) {
      const { html: inherited } = await page(`/auth/signin?error=${key}`)
      expect(inherited).toContain('<div class="error" role="alert">Unable to sign in.</div>')
    }
  })

  test("no error, no alert", async () => {
    const { html } = await page("/auth/signin")
    expect(html).not.toContain('role="alert"')
  })
})

describe("sign-out page", () => {
  test("a confirm form POSTing to signout with the CSRF token", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const response = await Auth(get("/auth/signout?callbackUrl=%2Fbye", { jar }), config)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain("Are you sure you want to sign out?")
    expect(html).toContain(
      `<form action="${ORIGIN}/auth/signout" method="POST"><input type="hidden" name="csrfToken" value="${token}"><input type="hidden" name="callbackUrl" value="${ORIGIN}/bye"><button type="submit">Sign out</button></form>`,
    )
  })
})

describe("error page", () => {
  test.each([
    ["Configuration", 500, "Server error"],
    ["AccessDenied", 403, "Access denied"],
    ["Verification", 403, "The sign in link is no longer valid"],
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

  test("AccessDenied and Verification link back to sign-in; Configuration does not", async () => {
    expect((await page("/auth/error?error=AccessDenied")).html).toContain(
      `<a class="button" href="${ORIGIN}/auth/signin">Sign in</a>`,
    )
    expect((await page("/auth/error?error=Verification")).html).toContain(
      `href="${ORIGIN}/auth/signin"`,
    )
    expect((await page("/auth/error?error=Configuration")).html).not.toContain("/auth/signin")
    expect(
      (await page("/auth/error?error=AccessDenied", { pages: { signIn: "/login" } })).html,
    ).toContain(`href="${ORIGIN}/login"`)
  })
})

describe("verify-request page", () => {
  test("tells the user to check their e-mail, with a link home", async () => {
    const { response, html } = await page("/auth/verify-request")
    expect(response.status).toBe(200)
    expect(html).toContain("Check your email")
    expect(html).toContain(`<a class="button" href="${ORIGIN}">localhost:3000</a>`)
  })
})

describe("theme", () => {
  test.each([
    ["auto", "light dark"],
    ["dark", "dark"],
    ["light", "light"],
  ])("colorScheme %s", async (scheme, meta) => {
    const { html } = await page("/auth/signin", { theme: { colorScheme: scheme } })
    expect(html).toContain(`<html lang="en" class="${scheme}">`)
    expect(html).toContain(`<meta name="color-scheme" content="${meta}">`)
  })

  test("colorScheme defaults to auto", async () => {
    expect((await page("/auth/signin")).html).toContain('<html lang="en" class="auto">')
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
      '<a class="button" href="http://a.example">a.example</a>',
    )
  })
})
