/**
 * The OpenID Connect built-in providers (Google, Microsoft Entra ID, Apple,
 * Keycloak, Auth0, Okta, Twitch, Slack, LinkedIn), each against a loopback
 * stand-in answering as the provider's hosts (through customFetch): discovery,
 * JWKS, token endpoint, ID Tokens with the provider's documented claims.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { setEnvDefaults } from "@tessera/core"
import Google from "@tessera/core/providers/google"
import MicrosoftEntraID from "@tessera/core/providers/microsoft-entra-id"
import Apple from "@tessera/core/providers/apple"
import Keycloak from "@tessera/core/providers/keycloak"
import Auth0 from "@tessera/core/providers/auth0"
import Okta from "@tessera/core/providers/okta"
import Twitch from "@tessera/core/providers/twitch"
import Slack from "@tessera/core/providers/slack"
import LinkedIn from "@tessera/core/providers/linkedin"
import { customFetch } from "../../src/symbols.js"
import type { AuthConfig } from "../../src/config/auth-config.js"
import { Browser, setCookies, recordingLogger, SECRET, setsSession } from "../harness/index.js"
import { FakeIssuer, StandIn, type CodeRecord } from "../harness/stand-in.js"

const ORIGIN = "http://localhost:3000"
let standIn: StandIn

beforeAll(async () => {
  standIn = await StandIn.start()
})
afterAll(() => standIn?.stop())

function configOf(provider: any, extra: Partial<AuthConfig> = {}) {
  const recorder = recordingLogger()
  const seen: { account?: any; profile?: any } = {}
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    debug: true,
    logger: recorder.logger,
    providers: [provider],
    callbacks: {
      jwt({ token, account, profile, trigger }) {
        if (trigger === "signIn") Object.assign(seen, { account, profile })
        return token
      },
    },
    ...extra,
  }
  return { config, seen, ...recorder }
}

async function flow(provider: any, issuer: FakeIssuer, sub: string, config = configOf(provider)) {
  const browser = new Browser(config.config)
  const start = await browser.startSignIn(provider.id ?? provider.options?.id)
  expect(start.status).toBe(302)
  const location = new URL(start.headers.get("location")!)
  const done = await browser.request(issuer.authorize(location, sub).href)
  const session = setsSession(done) ? await browser.session() : null
  return { browser, start, location, done, session, ...config }
}

interface Spec {
  issuer: string
  authorization: string
  token: string
  userinfo?: string
  jwks: string
  authMethod?: "client_secret_basic" | "client_secret_post"
  claims?: (record: CodeRecord) => Record<string, unknown>
  tokenResponse?: (
    record: CodeRecord,
    issuer: FakeIssuer,
  ) => Promise<Record<string, unknown>> | Record<string, unknown>
}

function issuerOf(spec: Spec, clientId: string, clientSecret: string) {
  return FakeIssuer.create({
    standIn,
    issuer: spec.issuer,
    authorizationEndpoint: spec.authorization,
    tokenEndpoint: spec.token,
    userinfoEndpoint: spec.userinfo,
    jwksUri: spec.jwks,
    clientId,
    clientSecret,
    authMethod: spec.authMethod ?? "client_secret_basic",
    idTokenClaims: spec.claims,
    tokenResponse: spec.tokenResponse,
  })
}

describe("Google", () => {
  test("discovery from accounts.google.com, ID Token profile, PKCE + nonce, client_secret_basic", async () => {
    const google = await issuerOf(
      {
        issuer: "https://accounts.google.com",
        authorization: "https://accounts.google.com/o/oauth2/v2/auth",
        token: "https://oauth2.googleapis.com/token",
        userinfo: "https://openidconnect.googleapis.com/v1/userinfo",
        jwks: "https://www.googleapis.com/oauth2/v3/certs",
        claims: () => ({
          azp: "google-client.apps.googleusercontent.com",
          email: "ada@gmail.example",
          email_verified: true,
          name: "Ada Google",
          given_name: "Ada",
          family_name: "Google",
          picture: "https://lh3.googleusercontent.example/a/ada",
          hd: "acme.example",
        }),
      },
      "google-client.apps.googleusercontent.com",
      "GOCSPX-secret",
    )
    const provider = Google({
      clientId: "google-client.apps.googleusercontent.com",
      clientSecret: "GOCSPX-secret",
      authorization: { params: { access_type: "offline" } },
      [customFetch]: standIn.fetch,
    })
    const { location, session, seen } = await flow(provider, google, "108000000000000000001")
    expect(location.origin + location.pathname).toBe("https://accounts.google.com/o/oauth2/v2/auth")
    expect(location.searchParams.get("scope")).toBe("openid profile email")
    expect(location.searchParams.get("access_type")).toBe("offline")
    expect(location.searchParams.get("nonce")).toBeTruthy()
    expect(location.searchParams.get("code_challenge")).toBeTruthy()
    expect(session.user).toEqual({
      name: "Ada Google",
      email: "ada@gmail.example",
      image: "https://lh3.googleusercontent.example/a/ada",
    })
    expect(seen.profile).toMatchObject({
      hd: "acme.example",
      email_verified: true,
      sub: "108000000000000000001",
    })
    expect(seen.account.providerAccountId).toBe("108000000000000000001")
    expect(
      standIn
        .requestsTo("https://oauth2.googleapis.com/token")
        .at(-1)!
        .headers.get("authorization"),
    ).toMatch(/^Basic /)
  })
})

describe("Microsoft Entra ID", () => {
  const tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
  const base = `https://login.microsoftonline.com/${tenant}`
  let entra: FakeIssuer
  let claimOverrides: Record<string, unknown> = {}

  beforeAll(async () => {
    entra = await issuerOf(
      {
        issuer: `${base}/v2.0`,
        authorization: `${base}/oauth2/v2.0/authorize`,
        token: `${base}/oauth2/v2.0/token`,
        userinfo: "https://graph.microsoft.com/oidc/userinfo",
        jwks: `${base}/discovery/v2.0/keys`,
        authMethod: "client_secret_post",
        claims: () => ({
          ver: "2.0",
          oid: "00000000-0000-0000-66f3-3332eca7ea81",
          tid: tenant,
          name: "Ada Entra",
          preferred_username: "ada@contoso.example",
          email: "ada@contoso.example",
          ...claimOverrides,
        }),
      },
      "entra-app-id",
      "entra-secret",
    )
  })

  test("tenant-specific issuer from tenantId; profile from the ID Token", async () => {
    const provider = MicrosoftEntraID({
      clientId: "entra-app-id",
      clientSecret: "entra-secret",
      tenantId: tenant,
      [customFetch]: standIn.fetch,
    })
    const { location, session, seen } = await flow(
      provider,
      entra,
      "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
    )
    expect(location.origin + location.pathname).toBe(`${base}/oauth2/v2.0/authorize`)
    expect(session.user).toEqual({ name: "Ada Entra", email: "ada@contoso.example", image: null })
    expect(seen.profile).toMatchObject({ tid: tenant, oid: "00000000-0000-0000-66f3-3332eca7ea81" })
    expect(
      new URLSearchParams(standIn.requestsTo(`${base}/oauth2/v2.0/token`).at(-1)!.body).get(
        "client_secret",
      ),
    ).toBe("entra-secret")
  })

  test("AUTH_MICROSOFT_ENTRA_ID_ISSUER sets the tenant's issuer", async () => {
    const config = setEnvDefaults(
      {
        AUTH_SECRET: SECRET,
        AUTH_MICROSOFT_ENTRA_ID_ID: "entra-app-id",
        AUTH_MICROSOFT_ENTRA_ID_SECRET: "entra-secret",
        AUTH_MICROSOFT_ENTRA_ID_ISSUER: `${base}/v2.0`,
      },
      {
        trustHost: true,
        logger: recordingLogger().logger,
        providers: [(o: any) => MicrosoftEntraID({ ...o, [customFetch]: standIn.fetch })],
      },
    )
    const browser = new Browser(config)
    const start = await browser.startSignIn("microsoft-entra-id")
    const done = await browser.request(
      entra.authorize(start.headers.get("location")!, "sub-env").href,
    )
    expect(setsSession(done)).toBe(true)
  })

  test("an ID Token from another tenant is refused", async () => {
    claimOverrides = {
      iss: "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0",
    }
    try {
      const provider = MicrosoftEntraID({
        clientId: "entra-app-id",
        clientSecret: "entra-secret",
        tenantId: tenant,
        [customFetch]: standIn.fetch,
      })
      const { done, errors } = await flow(provider, entra, "other-tenant-user")
      expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
      expect(setsSession(done)).toBe(false)
      expect(errors.at(-1)?.message).toContain("iss")
    } finally {
      claimOverrides = {}
    }
  })

  test("multi-tenant endpoints are refused up front", () => {
    expect(() => MicrosoftEntraID({ tenantId: "common" })).toThrow(/tenant id/)
  })
})

describe("Apple", () => {
  let apple: FakeIssuer
  beforeAll(async () => {
    apple = await issuerOf(
      {
        issuer: "https://appleid.apple.com",
        authorization: "https://appleid.apple.com/auth/authorize",
        token: "https://appleid.apple.com/auth/token",
        jwks: "https://appleid.apple.com/auth/keys",
        authMethod: "client_secret_post",
        claims: (record) => ({
          email: `${record.sub.slice(0, 6)}@privaterelay.appleid.example`,
          email_verified: "true",
          is_private_email: "true",
          real_user_status: 2,
          nonce_supported: true,
          auth_time: Math.floor(Date.now() / 1000),
        }),
        // Apple always returns an ID Token, though its scopes (name, email) do not include openid.
        tokenResponse: async (record, issuer) => ({
          access_token: `a${crypto.randomUUID()}`,
          token_type: "Bearer",
          expires_in: 3600,
          refresh_token: "apple-refresh",
          id_token: await issuer.idToken(issuer.defaultIdTokenClaims(record)),
        }),
      },
      "com.example.web",
      "apple-client-secret-jwt",
    )
  })
  const provider = () =>
    Apple({
      clientId: "com.example.web",
      clientSecret: "apple-client-secret-jwt",
      [customFetch]: standIn.fetch,
    })

  /** Apple POSTs the callback (form_post) from its own page. */
  async function applePost(sub: string, user?: unknown) {
    const { config, seen } = configOf(provider())
    const browser = new Browser(config)
    const start = await browser.startSignIn("apple")
    const location = new URL(start.headers.get("location")!)
    const back = apple.authorize(location, sub)
    const body = new URLSearchParams(back.searchParams)
    if (user !== undefined) body.set("user", typeof user === "string" ? user : JSON.stringify(user))
    const done = await browser.request(`${back.origin}${back.pathname}`, {
      body,
      headers: { origin: "https://appleid.apple.com", "sec-fetch-site": "cross-site" },
    })
    const session = setsSession(done) ? await browser.session() : null
    return { start, location, done, session, seen }
  }

  test("form_post with state + nonce, SameSite=None cookies, name from the first sign-in's user JSON", async () => {
    const { start, location, done, session, seen } = await applePost("001234.abcdef.1234", {
      name: { firstName: "Ada", lastName: "Lovelace" },
      email: "attacker-chosen@example.test",
    })
    expect(location.origin + location.pathname).toBe("https://appleid.apple.com/auth/authorize")
    expect(location.searchParams.get("response_mode")).toBe("form_post")
    expect(location.searchParams.get("scope")).toBe("name email")
    expect(location.searchParams.get("state")).toBeTruthy()
    expect(location.searchParams.get("nonce")).toBeTruthy()
    for (const name of ["tessera.state", "tessera.nonce"]) {
      const cookie = setCookies(start).find((c) => c.name === name)!
      expect(cookie.attributes.samesite).toBe("None")
      expect(cookie.attributes.secure).toBe(true)
    }
    expect(done.status).toBe(302)
    // The e-mail is the ID Token's; the unsigned posted one is ignored.
    expect(session.user).toEqual({
      name: "Ada Lovelace",
      email: "001234@privaterelay.appleid.example",
      image: null,
    })
    expect(seen.profile.user).toEqual({
      name: { firstName: "Ada", lastName: "Lovelace" },
      email: "attacker-chosen@example.test",
    })
    expect(seen.account.providerAccountId).toBe("001234.abcdef.1234")
  })

  test("later sign-ins carry no user: no name; malformed user JSON is ignored", async () => {
    expect((await applePost("001234.abcdef.1234")).session.user).toEqual({
      name: null,
      email: "001234@privaterelay.appleid.example",
      image: null,
    })
    expect((await applePost("001234.abcdef.1234", "{not json")).session.user.name).toBeNull()
  })
})

describe("Keycloak, Auth0, Okta (issuer from the configuration)", () => {
  test("Keycloak: realm issuer, preferred_username as the name fallback", async () => {
    const realm = "https://kc.acme.example/realms/acme"
    const kc = await issuerOf(
      {
        issuer: realm,
        authorization: `${realm}/protocol/openid-connect/auth`,
        token: `${realm}/protocol/openid-connect/token`,
        userinfo: `${realm}/protocol/openid-connect/userinfo`,
        jwks: `${realm}/protocol/openid-connect/certs`,
        claims: () => ({
          typ: "ID",
          azp: "tessera",
          preferred_username: "ada",
          email: "ada@kc.example",
          email_verified: true,
          session_state: "s",
        }),
      },
      "tessera",
      "kc-secret",
    )
    const config = setEnvDefaults(
      {
        AUTH_SECRET: SECRET,
        AUTH_KEYCLOAK_ID: "tessera",
        AUTH_KEYCLOAK_SECRET: "kc-secret",
        AUTH_KEYCLOAK_ISSUER: realm,
      },
      {
        trustHost: true,
        logger: recordingLogger().logger,
        providers: [(o: any) => Keycloak({ ...o, [customFetch]: standIn.fetch })],
      },
    )
    const browser = new Browser(config)
    const start = await browser.startSignIn("keycloak")
    const done = await browser.request(kc.authorize(start.headers.get("location")!, "f:1234").href)
    expect(setsSession(done)).toBe(true)
    expect((await browser.session()).user).toEqual({
      name: "ada",
      email: "ada@kc.example",
      image: null,
    })
  })

  test("Auth0: an issuer with a trailing slash matches the configured domain", async () => {
    const auth0 = await issuerOf(
      {
        issuer: "https://acme.eu.auth0.com/",
        authorization: "https://acme.eu.auth0.com/authorize",
        token: "https://acme.eu.auth0.com/oauth/token",
        userinfo: "https://acme.eu.auth0.com/userinfo",
        jwks: "https://acme.eu.auth0.com/.well-known/jwks.json",
        claims: () => ({
          nickname: "ada",
          name: "ada@auth0.example",
          picture: "https://s.gravatar.example/ada.png",
          email: "ada@auth0.example",
          email_verified: true,
          updated_at: "2024-01-01T00:00:00.000Z",
        }),
      },
      "auth0-client",
      "auth0-secret",
    )
    const provider = Auth0({
      clientId: "auth0-client",
      clientSecret: "auth0-secret",
      issuer: "https://acme.eu.auth0.com",
      [customFetch]: standIn.fetch,
    })
    const { session, seen } = await flow(provider, auth0, "auth0|65a0b0c0d0e0f00000000001")
    expect(session.user).toEqual({
      name: "ada@auth0.example",
      email: "ada@auth0.example",
      image: "https://s.gravatar.example/ada.png",
    })
    expect(seen.account.providerAccountId).toBe("auth0|65a0b0c0d0e0f00000000001")
  })

  test("Okta: custom authorization server", async () => {
    const issuer = "https://acme.okta.example/oauth2/default"
    const okta = await issuerOf(
      {
        issuer,
        authorization: `${issuer}/v1/authorize`,
        token: `${issuer}/v1/token`,
        userinfo: `${issuer}/v1/userinfo`,
        jwks: `${issuer}/v1/keys`,
        claims: () => ({
          ver: 1,
          auth_time: Math.floor(Date.now() / 1000),
          amr: ["pwd"],
          name: "Ada Okta",
          preferred_username: "ada@okta.example",
          email: "ada@okta.example",
        }),
      },
      "0oa1okta",
      "okta-secret",
    )
    const { session } = await flow(
      Okta({
        clientId: "0oa1okta",
        clientSecret: "okta-secret",
        issuer,
        [customFetch]: standIn.fetch,
      }),
      okta,
      "00u1ada",
    )
    expect(session.user).toEqual({ name: "Ada Okta", email: "ada@okta.example", image: null })
  })
})

describe("Twitch", () => {
  test("claims request, scope list in the token response, client_secret_post, state + nonce", async () => {
    const twitch = await issuerOf(
      {
        issuer: "https://id.twitch.tv/oauth2",
        authorization: "https://id.twitch.tv/oauth2/authorize",
        token: "https://id.twitch.tv/oauth2/token",
        userinfo: "https://id.twitch.tv/oauth2/userinfo",
        jwks: "https://id.twitch.tv/oauth2/keys",
        authMethod: "client_secret_post",
        tokenResponse: async (record, issuer) => ({
          access_token: `tw-${crypto.randomUUID()}`,
          expires_in: 14124,
          id_token: await issuer.idToken({
            ...issuer.defaultIdTokenClaims(record),
            azp: "twitch-client",
            preferred_username: "ada_streams",
            email: "ada@twitch.example",
            email_verified: true,
            picture: "https://static-cdn.jtvnw.example/ada.png",
          }),
          refresh_token: "tw-refresh",
          scope: ["openid", "user:read:email"],
          token_type: "bearer",
        }),
      },
      "twitch-client",
      "twitch-secret",
    )
    const { location, session, seen } = await flow(
      Twitch({
        clientId: "twitch-client",
        clientSecret: "twitch-secret",
        [customFetch]: standIn.fetch,
      }),
      twitch,
      "12826",
    )
    expect(location.searchParams.get("scope")).toBe("openid user:read:email")
    expect(JSON.parse(location.searchParams.get("claims")!)).toEqual({
      id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
    })
    expect(location.searchParams.get("state")).toBeTruthy()
    expect(location.searchParams.has("code_challenge")).toBe(false)
    expect(session.user).toEqual({
      name: "ada_streams",
      email: "ada@twitch.example",
      image: "https://static-cdn.jtvnw.example/ada.png",
    })
    expect(seen.account).toMatchObject({
      scope: "openid user:read:email",
      refresh_token: "tw-refresh",
      providerAccountId: "12826",
    })
  })
})

describe("Slack", () => {
  let slackError = false
  let slack: FakeIssuer
  beforeAll(async () => {
    slack = await issuerOf(
      {
        issuer: "https://slack.com",
        authorization: "https://slack.com/openid/connect/authorize",
        token: "https://slack.com/api/openid.connect.token",
        userinfo: "https://slack.com/api/openid.connect.userInfo",
        jwks: "https://slack.com/openid/connect/keys",
        authMethod: "client_secret_post",
        tokenResponse: async (record, issuer) =>
          slackError
            ? { ok: false, error: "invalid_code" }
            : {
                ok: true,
                access_token: `xoxp-${crypto.randomUUID()}`,
                token_type: "Bearer",
                id_token: await issuer.idToken({
                  ...issuer.defaultIdTokenClaims(record),
                  auth_time: Math.floor(Date.now() / 1000),
                  "https://slack.com/user_id": "U0R7JM",
                  "https://slack.com/team_id": "T0R7GR",
                  email: "ada@slack.example",
                  email_verified: true,
                  name: "Ada Slack",
                  picture: "https://secure.gravatar.example/ada-512.png",
                  given_name: "Ada",
                  family_name: "Slack",
                  locale: "en-US",
                }),
              },
      },
      "slack-client",
      "slack-secret",
    )
  })
  const provider = () =>
    Slack({ clientId: "slack-client", clientSecret: "slack-secret", [customFetch]: standIn.fetch })

  test("ID Token with Slack's claims", async () => {
    const { session, seen } = await flow(provider(), slack, "U0R7JM")
    expect(session.user).toEqual({
      name: "Ada Slack",
      email: "ada@slack.example",
      image: "https://secure.gravatar.example/ada-512.png",
    })
    expect(seen.profile["https://slack.com/team_id"]).toBe("T0R7GR")
  })

  test("Slack's { ok: false } with status 200 is reported as the provider's error", async () => {
    slackError = true
    try {
      const { done, errors } = await flow(provider(), slack, "U0R7JM")
      expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
      expect(setsSession(done)).toBe(false)
      expect(errors.at(-1)?.message).toContain("invalid_code")
    } finally {
      slackError = false
    }
  })
})

describe("LinkedIn", () => {
  test("issuer with a path: metadata from /oauth/.well-known, state + nonce, client_secret_post", async () => {
    const linkedin = await issuerOf(
      {
        issuer: "https://www.linkedin.com/oauth",
        authorization: "https://www.linkedin.com/oauth/v2/authorization",
        token: "https://www.linkedin.com/oauth/v2/accessToken",
        userinfo: "https://api.linkedin.com/v2/userinfo",
        jwks: "https://www.linkedin.com/oauth/openid/jwks",
        authMethod: "client_secret_post",
        claims: () => ({
          name: "Ada LinkedIn",
          given_name: "Ada",
          family_name: "LinkedIn",
          picture: "https://media.licdn.example/ada.jpg",
          locale: "en_US",
          email: "ada@linkedin.example",
          email_verified: true,
        }),
      },
      "linkedin-client",
      "linkedin-secret",
    )
    const { location, session } = await flow(
      LinkedIn({
        clientId: "linkedin-client",
        clientSecret: "linkedin-secret",
        [customFetch]: standIn.fetch,
      }),
      linkedin,
      "782bbtaQ",
    )
    expect(location.searchParams.get("state")).toBeTruthy()
    expect(location.searchParams.get("nonce")).toBeTruthy()
    expect(location.searchParams.has("code_challenge")).toBe(false)
    expect(session.user).toEqual({
      name: "Ada LinkedIn",
      email: "ada@linkedin.example",
      image: "https://media.licdn.example/ada.jpg",
    })
    expect(
      standIn.requestsTo("https://www.linkedin.com/oauth/.well-known/openid-configuration"),
    ).toHaveLength(1)
  })
})
