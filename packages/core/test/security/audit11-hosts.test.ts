/**
 * Audit 11 (issue 9, hosts): header spellings and routes the first host tests
 * did not try. Every answer from every route must either stay on the trusted
 * origin or be a 400 `UntrustedHost`: never a URL on the attacker's host, never
 * a 500. And `createActionURL` refuses a malformed host with `UntrustedHost`,
 * as it does any other host it cannot build on.
 */
import { describe, expect, test } from "vitest"
import { Auth, createActionURL, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { MemoryAdapter } from "@tessera/testing"
import { Jar, oauthProvider, SECRET } from "../harness/index.js"

const APP = "https://app.example.com"
const EVIL = "attacker.test"

const configs: Record<string, Partial<AuthConfig>> = {
  "canonical url, trustHost": { url: `${APP}/auth`, trustHost: true },
  "canonical url, no trustHost": { url: `${APP}/auth`, trustHost: false },
  "canonical origin, allowedHosts": { origin: APP, trustHost: true, allowedHosts: [APP.slice(8)] },
  "trustHost, allowedHosts": { trustHost: true, allowedHosts: ["app.example.com"] },
}

const spellings: Record<string, Record<string, string>> = {
  "X-Forwarded-Host list, attacker first": { "x-forwarded-host": `${EVIL}, app.example.com` },
  "X-Forwarded-Host list, attacker second": { "x-forwarded-host": `app.example.com, ${EVIL}` },
  "Forwarded: host=": { forwarded: `host=${EVIL};proto=https` },
  "X-Forwarded-Host with userinfo": { "x-forwarded-host": `app.example.com@${EVIL}` },
  "X-Forwarded-Host with a path": { "x-forwarded-host": `${EVIL}/.app.example.com` },
  "X-Forwarded-Host with a trailing dot": { "x-forwarded-host": "app.example.com." },
  "X-Forwarded-Host, another port": { "x-forwarded-host": "app.example.com:8443" },
  "X-Forwarded-Host, an IPv6 literal": { "x-forwarded-host": "[::1]" },
  "X-Forwarded-Proto: javascript": { "x-forwarded-proto": "javascript" },
}

const routes: [string, string][] = [
  ["GET", "/auth/signin"],
  ["GET", "/auth/signout"],
  ["GET", "/auth/error?error=AccessDenied"],
  ["GET", "/auth/verify-request"],
  ["GET", "/auth/providers"],
  ["GET", "/auth/session"],
  ["GET", "/auth/signin/github"],
  ["GET", "/auth/callback/github?code=c&state=s"],
  ["GET", "/auth/callback/email?token=t&email=victim%40example.org"],
  ["GET", "/auth/webauthn-options/passkey"],
  ["POST", "/auth/signin/email"],
  ["POST", "/auth/signin/github"],
  ["POST", "/auth/signout"],
]

describe.each(Object.entries(configs))("%s", (_, extra) => {
  test.each(Object.entries(spellings))(
    "%s: every route stays on the app's origin or answers 400",
    async (_, forged) => {
      const mailed: string[] = []
      const config: AuthConfig = {
        secret: SECRET,
        adapter: MemoryAdapter(),
        logger: { error: () => {}, warn: () => {}, debug: () => {} },
        providers: [
          Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) }),
          oauthProvider(),
        ],
        ...extra,
      }
      const jar = new Jar()
      const csrf = await Auth(new Request(`${APP}/auth/csrf`), config)
      jar.update(csrf)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      for (const [method, path] of routes) {
        const headers = new Headers({ ...forged, cookie: jar.header(), origin: APP })
        let body: URLSearchParams | undefined
        if (method === "POST") {
          body = new URLSearchParams({ csrfToken, email: "victim@example.org", callbackUrl: "/" })
        }
        const response = await Auth(new Request(`${APP}${path}`, { method, headers, body }), config)
        const where = `${method} ${path}`
        expect(response.status, where).toBeLessThan(500)
        if (response.status === 400 && (await response.clone().text()).includes("UntrustedHost"))
          continue
        const location = response.headers.get("location")
        if (location)
          expect(new URL(location).origin, where).toMatch(
            /^https:\/\/(app\.example\.com|gh\.example)$/,
          )
        expect(await response.text(), where).not.toMatch(/attacker|\[::1\]|:8443|example\.com\.\//)
      }
      for (const url of mailed) expect(new URL(url).origin).toBe(APP)
    },
  )
})

describe("createActionURL", () => {
  test("a host that only a full parse rejects (port 99999) is UntrustedHost, not a TypeError", () => {
    expect(() =>
      createActionURL(
        "signin",
        "https",
        new Headers({ host: "app.example.com:99999" }),
        {},
        { trustHost: true },
      ),
    ).toThrow(expect.objectContaining({ type: "UntrustedHost" }))
  })

  test("an X-Forwarded-Host list counts by its first entry, like requests", () => {
    const headers = new Headers({ "x-forwarded-host": `${EVIL}, app.example.com` })
    expect(() =>
      createActionURL(
        "signin",
        "https",
        headers,
        {},
        {
          trustHost: true,
          allowedHosts: ["app.example.com"],
        },
      ),
    ).toThrow(expect.objectContaining({ type: "UntrustedHost" }))
  })
})
