/**
 * RP-initiated logout (`signOut: "provider"`) as an attacker drives it, against the real
 * oidc-provider: the sign-out's `callbackUrl` is the attacker's to choose (a link or form of
 * theirs), and becomes the `post_logout_redirect_uri`. Spellings that browsers and URL parsers
 * read differently must all end on the app's own origin; the provider, which checks it against
 * the registered list, must never be asked to send the user elsewhere. The ID Token sent as
 * `id_token_hint` (it holds the user's profile claims) is in no log line, with `debug` on.
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import {
  completeOidcLogin,
  localOidcProvider,
  MemoryAdapter,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { Browser, ORIGIN, recordingLogger, SECRET } from "../harness/index.js"

let idp: OidcProviderServer
beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    postLogoutRedirectUris: [`${ORIGIN}/`],
  })
})
afterAll(() => idp?.stop())

const hostile = [
  "https://evil.example/",
  "//evil.example/",
  "/\\evil.example/",
  "\\\\evil.example",
  "https://localhost:3000@evil.example/",
  "http://localhost:3000.evil.example/",
  "javascript:alert(document.domain)//",
  "data:text/html,<script>alert(1)</script>",
  " https://evil.example/",
  "/%2F%2Fevil.example",
  "\t//evil.example",
  "https:evil.example",
]

test.each([["database"], ["jwt"]] as const)(
  "%s sessions: every hostile callbackUrl ends on the app's origin; the hint is never logged",
  async (strategy) => {
    const log = recordingLogger()
    const lines: string[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      debug: true,
      adapter: MemoryAdapter(),
      session: { strategy },
      logger: {
        ...log.logger,
        debug: (message, metadata) => {
          lines.push(`${message} ${JSON.stringify(metadata ?? null)}`)
          log.logger.debug!(message, metadata)
        },
        warn: (code) => void lines.push(String(code)),
        error: (error) => {
          lines.push(`${error.name} ${error.message} ${JSON.stringify(error.cause ?? null)}`)
          log.logger.error!(error)
        },
      },
      providers: [{ ...localOidcProvider(idp, "local"), signOut: "provider" }],
    }
    for (const callbackUrl of hostile) {
      const browser = new Browser(config)
      const start = await browser.startSignIn("local")
      const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
      expect((await browser.request(back.url.pathname + back.url.search)).status).toBe(302)

      const response = await browser.request("/auth/signout", {
        body: { csrfToken: await browser.csrfToken(), callbackUrl },
        headers: { origin: ORIGIN },
      })
      const location = new URL(response.headers.get("location")!)
      expect(location.origin).toBe(new URL(idp.issuer).origin)
      const target = new URL(location.searchParams.get("post_logout_redirect_uri")!)
      expect({ callbackUrl, origin: target.origin }).toEqual({ callbackUrl, origin: ORIGIN })
      const hint = location.searchParams.get("id_token_hint")
      expect(hint).toEqual(expect.any(String))
      expect(lines.join("\n")).not.toContain(hint!)
      expect(lines.join("\n")).not.toContain(hint!.split(".")[1]!)
      expect(await browser.session()).toBeNull()
    }
    expect(log.errors).toEqual([])
  },
)
