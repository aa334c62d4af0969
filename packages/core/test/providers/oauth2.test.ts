/**
 * The OAuth 2 built-in providers (GitHub, GitLab, Discord, Facebook), each
 * with its real default URLs, against a loopback stand-in that answers as the
 * provider's hosts (through customFetch) with its documented response shapes.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import GitHub, { type GitHubEmail } from "@tessera/core/providers/github"
import GitLab from "@tessera/core/providers/gitlab"
import Discord from "@tessera/core/providers/discord"
import Facebook from "@tessera/core/providers/facebook"
import { customFetch } from "../../src/symbols.js"
import type { AuthConfig } from "../../src/config/auth-config.js"
import { Browser, recordingLogger, SECRET, setsSession } from "../harness/index.js"
import { FakeIssuer, json, StandIn } from "../harness/stand-in.js"

const ORIGIN = "http://localhost:3000"
let standIn: StandIn

beforeAll(async () => {
  standIn = await StandIn.start()
})
afterAll(() => standIn?.stop())

function configOf(provider: any) {
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
  }
  return { config, seen, ...recorder }
}

async function flow(provider: any, issuer: FakeIssuer, sub: string) {
  const { config, seen, errors } = configOf(provider)
  const browser = new Browser(config)
  const start = await browser.startSignIn(provider.id)
  expect(start.status).toBe(302)
  const location = new URL(start.headers.get("location")!)
  const done = await browser.request(issuer.authorize(location, sub).href)
  const session = setsSession(done) ? await browser.session() : null
  return { location, done, session, seen, errors }
}

describe("GitHub", () => {
  let github: FakeIssuer
  const users: Record<string, Record<string, unknown>> = {
    octo: {
      login: "octocat",
      id: 583231,
      name: "The Octocat",
      email: "octocat@github.example",
      avatar_url: "https://avatars.githubusercontent.example/u/583231",
    },
    hidden: {
      login: "hidden-cat",
      id: 1001,
      name: null,
      email: null,
      avatar_url: "https://avatars.githubusercontent.example/u/1001",
    },
    unverified: {
      login: "unverified-cat",
      id: 1002,
      name: "Unverified",
      email: null,
      avatar_url: "https://a.example/1002",
    },
  }
  const emails: Record<string, GitHubEmail[]> = {
    hidden: [
      { email: "old@github.example", primary: false, verified: true, visibility: null },
      { email: "hidden@github.example", primary: true, verified: true, visibility: "private" },
    ],
    unverified: [
      { email: "maybe@github.example", primary: true, verified: false, visibility: "private" },
    ],
  }
  let tokenError = false

  beforeAll(async () => {
    github = await FakeIssuer.create({
      standIn,
      issuer: "https://github.com",
      authorizationEndpoint: "https://github.com/login/oauth/authorize",
      tokenEndpoint: "https://github.com/login/oauth/access_token",
      userinfoEndpoint: "https://api.github.com/user",
      discovery: false,
      clientId: "Iv1.github-client",
      clientSecret: "github-secret",
      authMethod: "client_secret_post",
      tokenResponse: () =>
        tokenError
          ? {
              error: "bad_verification_code",
              error_description: "The code passed is incorrect or expired.",
            }
          : {
              access_token: `gho_${crypto.randomUUID().replace(/-/g, "")}`,
              token_type: "bearer",
              scope: "read:user,user:email",
            },
      userinfo: (record, request) => {
        expect(request.headers.get("accept")).toBe("application/vnd.github+json")
        expect(request.headers.get("user-agent")).toBeTruthy()
        return json(users[record.sub])
      },
    })
    standIn.on("GET", "https://api.github.com/user/emails", (request) => {
      const record = github.recordForBearer(request)
      return record
        ? json(emails[record.sub] ?? [])
        : json({ message: "Requires authentication" }, 401)
    })
  })

  const provider = () =>
    GitHub({
      clientId: "Iv1.github-client",
      clientSecret: "github-secret",
      [customFetch]: standIn.fetch,
    })

  test("public e-mail: profile from /user, no /user/emails call", async () => {
    const before = standIn.requestsTo("https://api.github.com/user/emails").length
    const { location, session, seen } = await flow(provider(), github, "octo")
    expect(location.origin + location.pathname).toBe("https://github.com/login/oauth/authorize")
    expect(location.searchParams.get("scope")).toBe("read:user user:email")
    expect(session.user).toEqual({
      name: "The Octocat",
      email: "octocat@github.example",
      image: "https://avatars.githubusercontent.example/u/583231",
    })
    expect(seen.account).toMatchObject({
      provider: "github",
      type: "oauth",
      providerAccountId: "583231",
      token_type: "bearer",
      scope: "read:user,user:email",
    })
    expect(standIn.requestsTo("https://api.github.com/user/emails").length).toBe(before)
    const tokenForm = new URLSearchParams(
      standIn.requestsTo("https://github.com/login/oauth/access_token").at(-1)!.body,
    )
    expect(tokenForm.get("client_secret")).toBe("github-secret")
  })

  test("private e-mail: the primary verified address from /user/emails; name falls back to login", async () => {
    const { session } = await flow(provider(), github, "hidden")
    expect(session.user).toEqual({
      name: "hidden-cat",
      email: "hidden@github.example",
      image: "https://avatars.githubusercontent.example/u/1001",
    })
  })

  test("an unverified primary address is not used", async () => {
    const { session } = await flow(provider(), github, "unverified")
    expect(session.user.email).toBeNull()
  })

  test("GitHub's 200-with-error token response is reported as the provider's error", async () => {
    tokenError = true
    try {
      const { done, errors } = await flow(provider(), github, "octo")
      expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
      expect(setsSession(done)).toBe(false)
      expect(errors.at(-1)?.message).toContain("bad_verification_code")
    } finally {
      tokenError = false
    }
  })

  test("GitHub Enterprise Server: endpoints under the base URL and /api/v3", async () => {
    const ghe = await FakeIssuer.create({
      standIn,
      issuer: "https://github.acme.example",
      authorizationEndpoint: "https://github.acme.example/login/oauth/authorize",
      tokenEndpoint: "https://github.acme.example/login/oauth/access_token",
      userinfoEndpoint: "https://github.acme.example/api/v3/user",
      discovery: false,
      clientId: "ghe",
      clientSecret: "ghe-secret",
      authMethod: "client_secret_post",
      userinfo: () => json(users.octo),
    })
    const { session } = await flow(
      GitHub({
        clientId: "ghe",
        clientSecret: "ghe-secret",
        enterprise: { baseUrl: "https://github.acme.example" },
        [customFetch]: standIn.fetch,
      }),
      ghe,
      "octo",
    )
    expect(session.user.name).toBe("The Octocat")
  })
})

describe("GitLab", () => {
  const profile = (id: number) => ({
    id,
    username: "ada",
    name: "Ada GitLab",
    email: "ada@gitlab.example",
    avatar_url: "https://gitlab.example/uploads/-/system/user/avatar/1/avatar.png",
    state: "active",
    web_url: "https://gitlab.com/ada",
  })
  const gitlab = (base: string) =>
    FakeIssuer.create({
      standIn,
      issuer: base,
      authorizationEndpoint: `${base}/oauth/authorize`,
      tokenEndpoint: `${base}/oauth/token`,
      userinfoEndpoint: `${base}/api/v4/user`,
      discovery: false,
      clientId: "gitlab-app",
      clientSecret: "gitlab-secret",
      authMethod: "client_secret_post",
      tokenResponse: () => ({
        access_token: `glpat-${crypto.randomUUID()}`,
        token_type: "Bearer",
        expires_in: 7200,
        refresh_token: "r",
        scope: "read_user",
        created_at: 1_700_000_000,
      }),
      userinfo: () => json(profile(7)),
    })

  test("gitlab.com: read_user scope, profile, refresh token and expiry stored", async () => {
    const issuer = await gitlab("https://gitlab.com")
    const { location, session, seen } = await flow(
      GitLab({
        clientId: "gitlab-app",
        clientSecret: "gitlab-secret",
        [customFetch]: standIn.fetch,
      }),
      issuer,
      "ada",
    )
    expect(location.searchParams.get("scope")).toBe("read_user")
    expect(location.searchParams.get("code_challenge_method")).toBe("S256")
    expect(session.user).toEqual({
      name: "Ada GitLab",
      email: "ada@gitlab.example",
      image: profile(7).avatar_url,
    })
    expect(seen.account).toMatchObject({
      providerAccountId: "7",
      token_type: "bearer",
      refresh_token: "r",
      scope: "read_user",
    })
    expect(seen.account.expires_at).toBeGreaterThan(Date.now() / 1000 + 7000)
  })

  test("self-managed instance through baseUrl", async () => {
    const issuer = await gitlab("https://gitlab.acme.example")
    const { session } = await flow(
      GitLab({
        clientId: "gitlab-app",
        clientSecret: "gitlab-secret",
        baseUrl: "https://gitlab.acme.example",
        [customFetch]: standIn.fetch,
      }),
      issuer,
      "ada",
    )
    expect(session.user.email).toBe("ada@gitlab.example")
  })
})

describe("Discord", () => {
  let discord: FakeIssuer
  const users: Record<string, Record<string, unknown>> = {
    static: {
      id: "80351110224678912",
      username: "nelly",
      discriminator: "0",
      global_name: "Nelly",
      avatar: "8342729096ea3675442027381ff50dfe",
      email: "nelly@discord.example",
      verified: true,
    },
    animated: {
      id: "80351110224678913",
      username: "anim",
      discriminator: "0",
      global_name: null,
      avatar: "a_1269e74af4df7417b13759eae50c83dc",
      email: null,
      verified: false,
    },
    none: {
      id: "80351110224678912",
      username: "legacy",
      discriminator: "1337",
      global_name: null,
      avatar: null,
      email: "l@discord.example",
      verified: true,
    },
    fresh: {
      id: "80351110224678912",
      username: "fresh",
      discriminator: "0",
      global_name: null,
      avatar: null,
      email: null,
      verified: true,
    },
  }

  beforeAll(async () => {
    discord = await FakeIssuer.create({
      standIn,
      issuer: "https://discord.com",
      authorizationEndpoint: "https://discord.com/oauth2/authorize",
      tokenEndpoint: "https://discord.com/api/oauth2/token",
      userinfoEndpoint: "https://discord.com/api/users/@me",
      discovery: false,
      clientId: "discord-app",
      clientSecret: "discord-secret",
      authMethod: "client_secret_post",
      tokenResponse: () => ({
        access_token: `d-${crypto.randomUUID()}`,
        token_type: "Bearer",
        expires_in: 604800,
        refresh_token: "dr",
        scope: "identify email",
      }),
      userinfo: (record) => json(users[record.sub]),
    })
  })
  const provider = () =>
    Discord({
      clientId: "discord-app",
      clientSecret: "discord-secret",
      [customFetch]: standIn.fetch,
    })

  test("scopes, display name, avatar URL from the hash", async () => {
    const { location, session, seen } = await flow(provider(), discord, "static")
    expect(location.searchParams.get("scope")).toBe("identify email")
    expect(session.user).toEqual({
      name: "Nelly",
      email: "nelly@discord.example",
      image:
        "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    })
    expect(seen.account.providerAccountId).toBe("80351110224678912")
  })

  test("animated avatars are GIFs; no avatar -> Discord's default avatar", async () => {
    expect((await flow(provider(), discord, "animated")).session.user).toEqual({
      name: "anim",
      email: null,
      image:
        "https://cdn.discordapp.com/avatars/80351110224678913/a_1269e74af4df7417b13759eae50c83dc.gif",
    })
    // Legacy discriminator 1337 -> 1337 % 5 = 2; unique username -> (id >> 22) % 6.
    expect((await flow(provider(), discord, "none")).session.user.image).toBe(
      "https://cdn.discordapp.com/embed/avatars/2.png",
    )
    const expected = Number((80351110224678912n >> 22n) % 6n)
    expect((await flow(provider(), discord, "fresh")).session.user.image).toBe(
      `https://cdn.discordapp.com/embed/avatars/${expected}.png`,
    )
  })
})

describe("Facebook", () => {
  test("Graph API fields, nested picture, state check, secret in the body", async () => {
    const facebook = await FakeIssuer.create({
      standIn,
      issuer: "https://www.facebook.com",
      authorizationEndpoint: "https://www.facebook.com/dialog/oauth",
      tokenEndpoint: "https://graph.facebook.com/oauth/access_token",
      userinfoEndpoint: "https://graph.facebook.com/me",
      discovery: false,
      clientId: "fb-app",
      clientSecret: "fb-secret",
      authMethod: "client_secret_post",
      tokenResponse: () => ({
        access_token: `EAAB${crypto.randomUUID()}`,
        token_type: "bearer",
        expires_in: 5183944,
      }),
      userinfo: (_record, request) => {
        expect(request.url.searchParams.get("fields")).toBe("id,name,email,picture")
        return json({
          id: "10158000000000001",
          name: "Ada Facebook",
          email: "ada@fb.example",
          picture: {
            data: {
              height: 50,
              width: 50,
              is_silhouette: false,
              url: "https://platform-lookaside.fbsbx.example/ada.jpg",
            },
          },
        })
      },
    })
    const { location, session, seen } = await flow(
      Facebook({ clientId: "fb-app", clientSecret: "fb-secret", [customFetch]: standIn.fetch }),
      facebook,
      "ada",
    )
    expect(location.origin + location.pathname).toBe("https://www.facebook.com/dialog/oauth")
    expect(location.searchParams.get("scope")).toBe("email")
    expect(location.searchParams.get("state")).toBeTruthy()
    expect(location.searchParams.has("code_challenge")).toBe(false)
    expect(session.user).toEqual({
      name: "Ada Facebook",
      email: "ada@fb.example",
      image: "https://platform-lookaside.fbsbx.example/ada.jpg",
    })
    expect(seen.account).toMatchObject({
      providerAccountId: "10158000000000001",
      token_type: "bearer",
    })
  })
})
