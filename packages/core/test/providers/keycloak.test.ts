/** Keycloak (OpenID Connect) against a stand-in realm. */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import Keycloak from "@tessera/core/providers/keycloak"
import { signInFromEnv } from "./helpers.js"

const realm = "https://kc.acme.example/realms/acme"

const suite = runProviderTests({
  provider: Keycloak,
  options: { issuer: realm },
  issuer: { url: realm, jwksUri: `${realm}/protocol/openid-connect/certs` },
  authorization: {
    url: `${realm}/protocol/openid-connect/auth`,
    scope: "openid profile email",
    checks: ["pkce", "nonce"],
  },
  token: { url: `${realm}/protocol/openid-connect/token`, clientAuth: "client_secret_basic" },
  identities: {
    verified: {
      sub: "f:1234",
      claims: {
        typ: "ID",
        azp: "tessera-test-client",
        preferred_username: "ada",
        email: "ada@kc.example",
        email_verified: true,
        session_state: "s",
      },
      expect: {
        user: { id: "f:1234", name: "ada", email: "ada@kc.example", image: null },
        verifiedEmail: "ada@kc.example",
      },
    },
    unverified: {
      sub: "f:5678",
      claims: {
        typ: "ID",
        name: "Bob Keycloak",
        preferred_username: "bob",
        email: "bob@kc.example",
        email_verified: false,
      },
      expect: {
        user: { id: "f:5678", name: "Bob Keycloak", email: "bob@kc.example", image: null },
        verifiedEmail: null,
      },
    },
  },
})

test("AUTH_KEYCLOAK_ID, _SECRET and _ISSUER configure `providers: [Keycloak]`", async () => {
  const env = {
    AUTH_KEYCLOAK_ID: suite.clientId,
    AUTH_KEYCLOAK_SECRET: suite.clientSecret,
    AUTH_KEYCLOAK_ISSUER: realm,
  }
  const { session } = await signInFromEnv(suite, Keycloak, env, "f:1234")
  expect(session.user.email).toBe("ada@kc.example")
})
