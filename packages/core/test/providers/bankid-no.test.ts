/**
 * BankID Norge (OpenID Connect): the profile from a signed userinfo JWT
 * (checked against BankID's keys and the ID Token's subject), client_secret_post,
 * PKCE + state + nonce, the Norwegian web BankID by default.
 */
import { expect, test } from "vitest"
import { runProviderTests } from "@tessera/testing/suites"
import BankIDNorway from "@tessera/core/providers/bankid-no"

const issuer = "https://auth.bankid.no/auth/realms/prod"
const userinfoUrl = `${issuer}/protocol/openid-connect/userinfo`

interface Identity {
  sub: string
  userinfo: Record<string, unknown>
  /** How the stand-in signs this identity's userinfo response. */
  signing?: "foreign-key" | "none"
  expect: any
}

const person = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  given_name: name.split(", ")[1],
  family_name: name.split(", ")[0],
  birthdate: "1986-04-12",
  amr: "BIS",
  bankid_altsub: "9578-6000-4-365161",
  ...extra,
})

const suite = runProviderTests<Identity>({
  provider: BankIDNorway,
  issuer: {
    url: issuer,
    jwksUri: `${issuer}/protocol/openid-connect/certs`,
    metadata: {
      userinfo_endpoint: userinfoUrl,
      userinfo_signing_alg_values_supported: ["RS256"],
    },
  },
  authorization: {
    url: `${issuer}/protocol/openid-connect/auth`,
    scope: "openid profile email",
    checks: ["pkce", "state", "nonce"],
    params: { ui_locales: "no", login_hint: "BIS" },
  },
  token: { url: `${issuer}/protocol/openid-connect/token`, clientAuth: "client_secret_post" },
  resources: [
    {
      url: userinfoUrl,
      response: async ({ identity, request }) => {
        // The issuer as reached: https, or http in the suite's insecure run.
        const iss = `${request.url.protocol}${issuer.slice("https:".length)}`
        const claims = { iss, aud: suite.clientId, sub: identity.sub, ...identity.userinfo }
        const jwt =
          identity.signing === "none"
            ? `${btoa(JSON.stringify({ alg: "none" })).replace(/=+$/, "")}.${btoa(JSON.stringify(claims)).replace(/=+$/, "")}.`
            : await suite.issuer.idToken(claims, {
                ...(identity.signing === "foreign-key" ? { key: suite.issuer.strangerKey } : {}),
              })
        expect(request.headers.get("authorization")).toMatch(/^Bearer /)
        return new Response(jwt, { headers: { "content-type": "application/jwt" } })
      },
    },
  ],
  identities: {
    verified: {
      sub: "b5a1a4e4-ada",
      userinfo: person("Nordmann, Ada", { email: "ada@bankid.example" }),
      expect: {
        user: {
          id: "b5a1a4e4-ada",
          name: "Nordmann, Ada",
          email: "ada@bankid.example",
          image: null,
        },
        // BankID verifies the person; the address is self-registered and carries no flag.
        verifiedEmail: null,
      },
    },
    unverified: {
      sub: "b5a1a4e4-bob",
      userinfo: person("Nordmann, Bob", { email: "bob@bankid.example", email_verified: true }),
      expect: {
        user: {
          id: "b5a1a4e4-bob",
          name: "Nordmann, Bob",
          email: "bob@bankid.example",
          image: null,
        },
        verifiedEmail: null,
      },
    },
    forged: {
      sub: "b5a1a4e4-eve",
      userinfo: person("Nordmann, Eve"),
      signing: "foreign-key",
      expect: {} as any,
    },
    unsigned: {
      sub: "b5a1a4e4-mal",
      userinfo: person("Nordmann, Mal"),
      signing: "none",
      expect: {} as any,
    },
  },
})

test("the profile comes from the signed userinfo response, not the ID Token", async () => {
  const { session, seen } = await suite.signIn("b5a1a4e4-ada")
  expect(session.user.name).toBe("Nordmann, Ada")
  expect(seen.profile).toMatchObject({ iss: issuer, birthdate: "1986-04-12", amr: "BIS" })
  expect(suite.standIn.requestsTo(userinfoUrl).length).toBeGreaterThan(0)
})

test("a userinfo JWT signed with a key that is not BankID's signs nobody in", async () => {
  const { done, session, errors } = await suite.signIn("b5a1a4e4-eve")
  expect(new URL(done.headers.get("location")!).searchParams.get("error")).toBe(
    "OAuthCallbackError",
  )
  expect(session).toBeNull()
  expect(
    errors.map((e) => `${e.message} ${String((e.cause as any)?.err?.message ?? "")}`).join(),
  ).toMatch(/signature/i)
})

test("an unsigned userinfo JWT signs nobody in", async () => {
  const { session } = await suite.signIn("b5a1a4e4-mal")
  expect(session).toBeNull()
})

test("a plain JSON userinfo is refused: BankID's is always signed", async () => {
  const { session } = await suite.signIn("b5a1a4e4-ada", {
    options: {
      userinfo: {
        request: undefined,
        conform: async () =>
          new Response(JSON.stringify({ sub: "b5a1a4e4-ada", name: "Someone Else" }), {
            headers: { "content-type": "application/json" },
          }),
      },
    },
  })
  expect(session).toBeNull()
})
