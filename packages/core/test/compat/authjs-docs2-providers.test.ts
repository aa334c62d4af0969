/**
 * Built-in provider factories with the options authjs.dev/reference/core/providers and
 * authjs.dev/guides/configuring-oauth-providers document, imports changed to `@tessera/*`,
 * against a real OpenID Provider: an OIDC factory (Keycloak) with `issuer`, `authorization.params`,
 * `profile`, `style` and `[customFetch]` (authjs.dev/guides/corporate-proxy); an OAuth 2 factory
 * (GitHub) with `authorization` as `{ url, params }`, `token` and `userinfo` as strings;
 * `allowDangerousEmailAccountLinking` between two providers that vouch for the address.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { startOidcProvider, MemoryAdapter } from "@tessera/testing"
import type { OidcProviderServer } from "@tessera/testing"
import { Auth, customFetch, type AuthConfig } from "@tessera/core"
import GitHub from "@tessera/core/providers/github"
import Keycloak from "@tessera/core/providers/keycloak"
import { SECRET } from "../harness/index.js"
import { oidcSignIn as signIn } from "./oidc-sign-in.js"

const ORIGIN = "http://localhost:3000"
let idp: OidcProviderServer
let idpPost: OidcProviderServer

beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/keycloak`] })
  // GitHub's factory authenticates with client_secret_post.
  idpPost = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/github`],
    tokenEndpointAuthMethod: "client_secret_post",
  })
})
afterAll(async () => {
  await idp?.stop()
  await idpPost?.stop()
})

describe("an OIDC factory with the documented options (Keycloak)", () => {
  test("issuer, authorization.params, profile, style and [customFetch]", async () => {
    const fetched: string[] = []
    // authjs.dev/guides/corporate-proxy: every request to the provider goes through this.
    const proxy: typeof fetch = (input, init) => {
      fetched.push(new URL(input instanceof Request ? input.url : input).pathname)
      return fetch(input, init)
    }
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [
        Keycloak({
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          issuer: idp.issuer,
          authorization: { params: { scope: "openid email profile", prompt: "consent" } },
          profile(profile) {
            return {
              id: profile.sub,
              name: `${profile.name} (Keycloak)`,
              email: profile.email,
              role: "staff",
            }
          },
          style: { brandColor: "#123456" },
          [customFetch]: proxy,
          dangerouslyAllowInsecureHttpRequests: true,
        }),
      ],
      callbacks: {
        jwt({ token, user }) {
          if (user) token.role = (user as { role?: string }).role
          return token
        },
        session({ session, token }) {
          return { ...session, user: { ...session.user, role: token.role } }
        },
      },
    }
    const { authorize, session } = await signIn(config, "keycloak")
    expect(authorize.origin).toBe(idp.issuer)
    expect(authorize.searchParams.get("scope")).toBe("openid email profile")
    expect(authorize.searchParams.get("prompt")).toBe("consent")
    expect(session?.user).toMatchObject({ name: "Ada (Keycloak)", role: "staff" })
    expect(fetched).toEqual(expect.arrayContaining(["/.well-known/openid-configuration", "/token"]))

    const page = await (await Auth(new Request(`${ORIGIN}/auth/signin`), config)).text()
    expect(page).toContain("#123456")
  })
})

describe("an OAuth 2 factory with its endpoints overridden (GitHub)", () => {
  test("authorization { url, params }, token and userinfo as strings, profile", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [
        GitHub({
          clientId: idpPost.clientId,
          clientSecret: idpPost.clientSecret,
          // The ID Token this server adds to the token response is checked against it.
          issuer: idpPost.issuer,
          authorization: {
            url: `${idpPost.issuer}/auth`,
            params: { scope: "openid email profile" },
          },
          token: `${idpPost.issuer}/token`,
          userinfo: `${idpPost.issuer}/me`,
          checks: ["pkce", "state"],
          profile(profile) {
            return { id: String(profile.sub), name: profile.name, email: profile.email }
          },
          dangerouslyAllowInsecureHttpRequests: true,
        }),
      ],
    }
    const { authorize, session } = await signIn(config, "github")
    expect(authorize.pathname).toBe("/auth")
    expect(authorize.searchParams.get("scope")).toBe("openid email profile")
    expect(session?.user).toMatchObject({ name: "Ada", email: "ada@example.test" })
  })
})

describe("allowDangerousEmailAccountLinking (authjs.dev/reference/core/providers#allowdangerousemailaccountlinking)", () => {
  test("a second provider vouching for the same verified address links to the first user", async () => {
    const adapter = MemoryAdapter()
    const keycloak = Keycloak({
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      issuer: idp.issuer,
      dangerouslyAllowInsecureHttpRequests: true,
    })
    const github = GitHub({
      clientId: idpPost.clientId,
      clientSecret: idpPost.clientSecret,
      issuer: idpPost.issuer,
      authorization: { url: `${idpPost.issuer}/auth`, params: { scope: "openid email profile" } },
      token: `${idpPost.issuer}/token`,
      userinfo: `${idpPost.issuer}/me`,
      profile: (p) => ({ id: String(p.sub), name: p.name, email: p.email }),
      allowDangerousEmailAccountLinking: true,
      dangerouslyAllowInsecureHttpRequests: true,
    })
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      providers: [keycloak, github],
    }
    const first = await signIn(config, "keycloak")
    const firstId = (first.session?.user as { id?: string } | undefined)?.id
    const second = await signIn(config, "github")
    expect(new URL(second.done.headers.get("location")!).searchParams.get("error")).toBeNull()
    expect(second.session?.user).toMatchObject({ email: "ada@example.test" })
    const user = await adapter.getUserByEmail!("ada@example.test")
    const accounts = await adapter.listAccountsByUserId!(user!.id)
    expect(accounts.map((a) => a.provider).sort()).toEqual(["github", "keycloak"])
    if (firstId) expect((second.session?.user as { id?: string }).id).toBe(firstId)
  })
})
