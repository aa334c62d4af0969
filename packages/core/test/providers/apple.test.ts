/**
 * Sign in with Apple against a stand-in of appleid.apple.com: form_post
 * callbacks, the once-only `user` JSON, `email_verified` as a string.
 */
import { expect, test } from "vitest"
import { parseSetCookies } from "@tessera/testing"
import { runProviderTests } from "@tessera/testing/suites"
import Apple from "@tessera/core/providers/apple"

const suite = runProviderTests({
  provider: Apple,
  clientId: "com.example.web",
  clientSecret: "apple-client-secret-jwt",
  issuer: { url: "https://appleid.apple.com", jwksUri: "https://appleid.apple.com/auth/keys" },
  authorization: {
    url: "https://appleid.apple.com/auth/authorize",
    scope: "name email",
    checks: ["state", "nonce"],
    params: { response_mode: "form_post" },
  },
  token: { url: "https://appleid.apple.com/auth/token", clientAuth: "client_secret_post" },
  identities: {
    verified: {
      sub: "001234.abcdef.1234",
      claims: {
        email: "ada@privaterelay.appleid.example",
        email_verified: "true",
        is_private_email: "true",
        real_user_status: 2,
        nonce_supported: true,
      },
      // The name comes once, as JSON posted beside the code; its e-mail is never used.
      callbackParams: {
        user: JSON.stringify({
          name: { firstName: "Ada", lastName: "Lovelace" },
          email: "attacker-chosen@example.test",
        }),
      },
      expect: {
        user: {
          id: "001234.abcdef.1234",
          name: "Ada Lovelace",
          email: "ada@privaterelay.appleid.example",
          image: null,
        },
        verifiedEmail: "ada@privaterelay.appleid.example",
      },
    },
    unverified: {
      sub: "005678.abcdef.5678",
      claims: { email: "bob@apple.example", email_verified: false },
      expect: {
        user: { id: "005678.abcdef.5678", name: null, email: "bob@apple.example", image: null },
        verifiedEmail: null,
      },
    },
    malformed: {
      sub: "009999.abcdef.9999",
      claims: { email: "carol@apple.example", email_verified: true },
      callbackParams: { user: "{not json" },
      expect: {} as any,
    },
  },
})

test("form_post: the check cookies are SameSite=None; Secure", async () => {
  const { start } = await suite.signIn("001234.abcdef.1234")
  for (const name of ["tessera.state", "tessera.nonce"]) {
    const cookie = parseSetCookies(start).find((c) => c.name === name)!
    expect(cookie.attributes.samesite).toBe("None")
    expect(cookie.attributes.secure).toBe(true)
  }
})

test("the posted user is kept as profile.user; malformed user JSON is ignored", async () => {
  const { seen } = await suite.signIn("001234.abcdef.1234")
  expect(seen.profile.user).toEqual({
    name: { firstName: "Ada", lastName: "Lovelace" },
    email: "attacker-chosen@example.test",
  })
  const malformed = await suite.signIn("009999.abcdef.9999")
  expect(malformed.session.user).toEqual({
    name: null,
    email: "carol@apple.example",
    image: null,
  })
})
