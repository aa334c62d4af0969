/**
 * Issue 10 asks for "a provider conformance suite in `@tessera/testing` (`runProviderTests`),
 * like `runAdapterTests`". Tested as an app uses it, from docs/testing.md ("Testing your own
 * provider") only: an app's own OAuth provider, a credentials provider and a passkey provider,
 * each run through the suite from the main entry or from `/suites`.
 */
import { expect, test } from "vitest"
import type { OAuthConfig } from "@tessera/core/providers"
import Credentials from "@tessera/core/providers/credentials"
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
    checks: ["pkce"],
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
