/**
 * Azure AD (deprecated): Microsoft Entra ID under the old id, so accounts and
 * the callback URL stay `azure-ad`; the `xms_edov` rule still applies.
 */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import AzureAD from "@tessera/core/providers/azure-ad"
import { signInFromEnv } from "./helpers.js"

const tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
const base = `https://login.microsoftonline.com/${tenant}`
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
  provider: AzureAD,
  options: { tenantId: tenant },
  issuer: { url: `${base}/v2.0`, jwksUri: `${base}/discovery/v2.0/keys` },
  authorization: {
    url: `${base}/oauth2/v2.0/authorize`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${base}/oauth2/v2.0/token`, clientAuth: "client_secret_post" },
  identities: {
    verified: {
      sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      claims: claims("Ada Azure", "ada@contoso.example", { xms_edov: true }),
      expect: {
        user: {
          id: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
          name: "Ada Azure",
          email: "ada@contoso.example",
          image: null,
        },
        verifiedEmail: "ada@contoso.example",
      },
    },
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
  },
})

test("the provider keeps the old id and name", () => {
  const provider = AzureAD({ tenantId: tenant })
  expect(provider).toMatchObject({ id: "azure-ad", name: "Azure Active Directory", type: "oidc" })
  expect(provider.options?.issuer).toBe(`${base}/v2.0`)
})

test("AUTH_AZURE_AD_ISSUER sets the tenant's issuer", async () => {
  const env = {
    AUTH_AZURE_AD_ID: suite.clientId,
    AUTH_AZURE_AD_SECRET: suite.clientSecret,
    AUTH_AZURE_AD_ISSUER: `${base}/v2.0`,
  }
  const { session } = await signInFromEnv(
    suite,
    AzureAD,
    env,
    "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
  )
  expect(session.user.name).toBe("Ada Azure")
})

test("multi-tenant endpoints are refused up front, as with Microsoft Entra ID", () => {
  expect(() => AzureAD({ tenantId: "common" })).toThrow(/tenant id/)
})
