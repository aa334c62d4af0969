/**
 * Issue 14 ("First hour with Tessera"), the translated pages, tested as an
 * outsider would: from the text and docs/pages.md only, through
 * `Auth()` with real `Request`s. Only what test/pages/ does not already check
 * is kept here (negotiation, overrides, right to left, the e-mail, the single
 * e-mail field, the favicon and the sign-out page are there).
 */
import { expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { get, makeConfig, oauthProvider } from "../harness/index.js"

async function lang(config: AuthConfig, path: string, acceptLanguage: string) {
  const response = await Auth(get(path, { headers: { "accept-language": acceptLanguage } }), config)
  const html = await response.text()
  return { lang: /<html\b[^>]*\blang="([^"]*)"/.exec(html)?.[1], response }
}

const PAGES = [
  "/auth/signin",
  "/auth/signin?error=OAuthCallbackError&code=access_denied",
  "/auth/signout",
  "/auth/error?error=AccessDenied",
  "/auth/error?error=Configuration",
  "/auth/error",
  "/auth/verify-request",
]

test("the `locale` option fixes the language of every built-in page, whatever the browser asks", async () => {
  const { config } = makeConfig({ providers: [oauthProvider()], locale: "ja" })
  for (const path of PAGES) {
    const { lang: found, response } = await lang(config, path, "de")
    expect(found, path).toBe("ja")
    expect(response.headers.get("content-language"), path).toBe("ja")
  }
})

test("Accept-Language's quality decides, not the order: English asked for last wins nothing", async () => {
  const { config } = makeConfig({ providers: [oauthProvider()] })
  for (const path of PAGES)
    expect((await lang(config, path, "en;q=0.1, zh-TW;q=0.9")).lang, path).toBe("zh")
})
