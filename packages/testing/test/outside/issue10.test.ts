/**
 * Issue 10 asks for "a provider conformance suite in `@tessera/testing` (`runProviderTests`),
 * like `runAdapterTests`". Tested as an app uses it, from docs/testing.md ("Testing your own
 * provider") only: an app's own OAuth provider, a credentials provider and a passkey provider,
 * each run through the suite from the main entry or from `/suites`.
 */
import { expect, test } from "vitest"
import { customFetch } from "@tessera/core"
import type { EmailConfig, OAuthConfig } from "@tessera/core/providers"
import Credentials from "@tessera/core/providers/credentials"
import Email from "@tessera/core/providers/email"
import Passkey from "@tessera/core/providers/passkey"
import { runProviderTests } from "@tessera/testing"
import { runProviderTests as runFromSuites } from "@tessera/testing/suites"

interface AcmeProfile {
  id: string
  name: string
  email: string
  verified: boolean
}

/** The app's own provider, written as docs/providers.md shows an OAuth 2.0 one. */
function Acme(options: Partial<OAuthConfig<AcmeProfile>>): OAuthConfig<AcmeProfile> {
  return {
    id: "acme",
    name: "Acme",
    type: "oauth",
    authorization: {
      url: "https://acme.example/oauth/authorize",
      params: { scope: "profile email" },
    },
    token: "https://acme.example/oauth/token",
    userinfo: "https://api.acme.example/me",
    profile: (p) => ({ id: p.id, name: p.name, email: p.email, image: null }),
    verifiedEmail: (p) => (p.verified ? p.email : null),
    ...options,
  }
}

const user = (id: string, verified: boolean): AcmeProfile => ({
  id,
  name: "Ada",
  email: "ada@acme.example",
  verified,
})

const acme = runProviderTests({
  provider: Acme,
  authorization: {
    url: "https://acme.example/oauth/authorize",
    scope: "profile email",
    checks: ["pkce", "state"],
  },
  token: { url: "https://acme.example/oauth/token", clientAuth: "client_secret_basic" },
  resources: [
    {
      url: "https://api.acme.example/me",
      response: ({ identity }) => (identity as unknown as { profile: AcmeProfile }).profile,
    },
  ],
  identities: {
    verified: {
      sub: "1",
      profile: user("1", true),
      expect: {
        user: { id: "1", name: "Ada", email: "ada@acme.example", image: null },
        verifiedEmail: "ada@acme.example",
      },
    },
    unverified: {
      sub: "2",
      profile: user("2", false),
      expect: {
        user: { id: "2", name: "Ada", email: "ada@acme.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("the handle runProviderTests returns signs in, in the file's own tests, for the app's quirks", async () => {
  const { session, seen } = await acme.signIn("1")
  expect(session?.user).toMatchObject({ name: "Ada", email: "ada@acme.example" })
  expect(seen.account).toMatchObject({ provider: "acme", providerAccountId: "1" })
  const denied = await acme.signIn("2", { outcome: "denied" })
  expect(denied.session).toBeNull()
})

runFromSuites({ provider: Credentials, credentials: {} })

runProviderTests({ provider: Passkey, webauthn: {} })

/**
 * An app's own e-mail provider on an HTTP mail API, written as docs/email.md shows (the generic
 * `Email` provider with its own `sendVerificationRequest`), reaching the API through the
 * provider's `[customFetch]` and refusing to send without `apiKey`, as docs/testing.md asks.
 */
function AcmeMail(options: Partial<EmailConfig>): EmailConfig {
  return Email({
    id: "acme-mail",
    name: "Acme Mail",
    ...options,
    async sendVerificationRequest({ identifier, url, provider }) {
      if (!provider.apiKey) throw new Error("Acme Mail needs an API key")
      const send = (provider as { [customFetch]?: typeof fetch })[customFetch] ?? fetch
      const response = await send("https://api.acmemail.example/v1/send", {
        method: "POST",
        headers: {
          authorization: `Bearer ${provider.apiKey}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ from: provider.from, to: identifier, text: `Sign in: ${url}` }),
      })
      if (!response.ok) throw new Error(`Acme Mail answered ${response.status}`)
    },
  })
}

runProviderTests({
  provider: AcmeMail,
  api: {
    url: "https://api.acmemail.example/v1/send",
    check({ request, json, to, apiKey, from, link }) {
      expect(request.headers.get("authorization")).toBe(`Bearer ${apiKey}`)
      expect(json).toMatchObject({ from, to })
      expect(json.text).toContain(link.href)
    },
    success: () => Response.json({ id: "m1" }),
    failure: () => Response.json({ error: "invalid_from" }, { status: 422 }),
  },
})
