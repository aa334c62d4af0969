/**
 * Microsoft Entra ID against a stand-in of one tenant: the `email` claim is
 * vouched for only with `xms_edov`; tokens of another tenant are refused.
 */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import MicrosoftEntraID from "@tessera/core/providers/microsoft-entra-id"
import { ORIGIN, signInFromEnv } from "./helpers.js"

const tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
const base = `https://login.microsoftonline.com/${tenant}`
const ADA = "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ"
const claims = (name: string, email: string, extra: Record<string, unknown> = {}) => ({
  ver: "2.0",
  oid: "00000000-0000-0000-66f3-3332eca7ea81",
  tid: tenant,
  name,
  preferred_username: email,
  email,
  ...extra,
})

const suite = runProviderTests({
  provider: MicrosoftEntraID,
  options: { tenantId: tenant },
  issuer: {
    url: `${base}/v2.0`,
    jwksUri: `${base}/discovery/v2.0/keys`,
    metadata: { userinfo_endpoint: "https://graph.microsoft.com/oidc/userinfo" },
  },
  authorization: {
    url: `${base}/oauth2/v2.0/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${base}/oauth2/v2.0/token`, clientAuth: "client_secret_post" },
  identities: {
    verified: {
      sub: ADA,
      claims: claims("Ada Entra", "ada@contoso.example", { xms_edov: true }),
      expect: {
        user: {
          id: ADA,
          name: "Ada Entra",
          email: "ada@contoso.example",
          image: null,
        },
        verifiedEmail: "ada@contoso.example",
      },
    },
    // A tenant can set any address as a user's mail: without xms_edov it proves nothing.
    unverified: {
      sub: "AAAAAAAAAAAAAAAAAAAAAJb0bbbbbbbbbbbbbbbbbbb",
      claims: claims("Mallory", "ceo@victim.example"),
      expect: {
        user: {
          id: "AAAAAAAAAAAAAAAAAAAAAJb0bbbbbbbbbbbbbbbbbbb",
          name: "Mallory",
          email: "ceo@victim.example",
          image: null,
        },
        verifiedEmail: null,
      },
    },
    otherTenant: {
      sub: "other-tenant-user",
      claims: {
        ...claims("Eve", "eve@fabrikam.example"),
        iss: "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0",
      },
      expect: {} as any,
    },
  },
})

test("xms_edov false vouches for nothing", () => {
  const rule = MicrosoftEntraID().verifiedEmail!
  expect(rule({ email: "a@b.example", xms_edov: false } as any, {})).toBeNull()
  expect(rule({ email: "a@b.example", xms_edov: "true" } as any, {})).toBeNull()
})

test("AUTH_MICROSOFT_ENTRA_ID_ISSUER sets the tenant's issuer", async () => {
  const env = {
    AUTH_MICROSOFT_ENTRA_ID_ID: suite.clientId,
    AUTH_MICROSOFT_ENTRA_ID_SECRET: suite.clientSecret,
    AUTH_MICROSOFT_ENTRA_ID_ISSUER: `${base}/v2.0`,
  }
  const { session } = await signInFromEnv(suite, MicrosoftEntraID, env, ADA)
  expect(session.user.name).toBe("Ada Entra")
})

test("an ID Token from another tenant is refused", async () => {
  const { done, session, errors } = await suite.signIn("other-tenant-user")
  expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
  expect(session).toBeNull()
  expect(errors.at(-1)?.message).toContain("iss")
})

test("multi-tenant endpoints are refused up front", () => {
  expect(() => MicrosoftEntraID({ tenantId: "common" })).toThrow(/tenant id/)
})

// The userinfo endpoint (Microsoft Graph) carries no `tid` or `iss`: read from it, every
// sign-in would fail the tenant check. Refused when the provider is made, saying why.
test("idToken: false is refused up front: the tenant check needs the ID Token", () => {
  for (const options of [{ tenantId: tenant }, { issuer: `${base}/v2.0` }, {}])
    expect(() => MicrosoftEntraID({ ...options, idToken: false })).toThrow(
      /idToken: false.*tenant check needs the ID Token/,
    )
  // Set over the made provider, the tenant check still refuses a userinfo profile, saying why.
  const { profile } = MicrosoftEntraID({ tenantId: tenant })
  expect(() => profile!({ sub: ADA, name: "Ada" } as any, {})).toThrow(/needs the ID Token/)
  // `idToken: true` (the default) is fine.
  expect(MicrosoftEntraID({ tenantId: tenant, idToken: true }).options?.idToken).toBe(true)
})
