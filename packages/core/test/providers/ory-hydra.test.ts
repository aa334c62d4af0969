/** Ory Hydra (OpenID Connect): provider id `hydra` (module `ory-hydra`), app-supplied issuer. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import OryHydra from "@tessera/core/providers/ory-hydra"
import { signInFromEnv, standardOidcIdentities } from "./helpers.js"

const issuer = "https://auth.hydra.example"

const suite = runProviderTests({
  provider: OryHydra,
  options: { issuer },
  issuer: { url: issuer, jwksUri: `${issuer}/.well-known/jwks.json` },
  authorization: {
    url: `${issuer}/oauth2/auth`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${issuer}/oauth2/token`, clientAuth: "client_secret_basic" },
  identities: standardOidcIdentities("hydra.example", { amr: ["pwd"], sid: "s-1" }),
})

test("the provider id is hydra, as in Auth.js: its callback URL and env variables", async () => {
  expect(OryHydra({}).id).toBe("hydra")
  const { location } = await suite.signIn("ada-subject")
  expect(location.searchParams.get("redirect_uri")).toBe(
    "http://localhost:3000/auth/callback/hydra",
  )
  const env = {
    AUTH_HYDRA_ID: suite.clientId,
    AUTH_HYDRA_SECRET: suite.clientSecret,
    AUTH_HYDRA_ISSUER: issuer,
  }
  const { session } = await signInFromEnv(suite, OryHydra, env, "ada-subject")
  expect(session?.user.email).toBe("ada@hydra.example")
})
