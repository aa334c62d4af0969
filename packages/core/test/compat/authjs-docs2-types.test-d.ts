/**
 * Type tests (`vitest --typecheck`, against the built declarations): code an Auth.js v5 app
 * or adapter author writes against `@auth/core/types`, `/adapters`, `/jwt`, `/errors` and
 * `/providers`, imports changed to `@tessera/*`, compiles as it is.
 */
import { describe, expectTypeOf, test } from "vitest"
import { customFetch, type AuthConfig } from "@tessera/core"
import {
  isDate,
  type Adapter,
  type AdapterAccount,
  type AdapterAccountType,
  type AdapterAuthenticator,
  type AdapterSession,
  type AdapterUser,
  type VerificationToken,
} from "@tessera/core/adapters"
import { CredentialsSignin, InvalidProvider, type AuthError } from "@tessera/core/errors"
import { getToken, type GetTokenParams, type JWT, type JWTOptions } from "@tessera/core/jwt"
import GitHub from "@tessera/core/providers/github"
import Keycloak from "@tessera/core/providers/keycloak"
import type {
  Account,
  AuthConfig as TypesAuthConfig,
  CookiesOptions,
  DefaultSession,
  DefaultUser,
  ErrorPageParam,
  LoggerInstance,
  PagesOptions,
  Profile,
  Session,
  SignInPageErrorParam,
  Theme,
  User,
} from "@tessera/core/types"

describe("@auth/core/adapters (authjs.dev/guides/creating-a-database-adapter)", () => {
  test("a hand-written adapter in Auth.js's shapes is an Adapter", () => {
    function MyAdapter(db: Map<string, unknown>): Adapter {
      return {
        async createUser(user: AdapterUser) {
          db.set(user.id, user)
          return user
        },
        async getUser(id) {
          return (db.get(id) as AdapterUser | undefined) ?? null
        },
        async getUserByEmail() {
          return null
        },
        async getUserByAccount({ provider, providerAccountId }) {
          return (db.get(`${provider}:${providerAccountId}`) as AdapterUser | undefined) ?? null
        },
        async updateUser(user) {
          return { ...(db.get(user.id) as AdapterUser), ...user }
        },
        async deleteUser(userId) {
          db.delete(userId)
        },
        async linkAccount(account: AdapterAccount) {
          db.set(`${account.provider}:${account.providerAccountId}`, account)
          return account
        },
        async unlinkAccount({ provider, providerAccountId }) {
          db.delete(`${provider}:${providerAccountId}`)
        },
        async createSession({ sessionToken, userId, expires }) {
          const session: AdapterSession = { sessionToken, userId, expires }
          db.set(sessionToken, session)
          return session
        },
        async getSessionAndUser(sessionToken) {
          const session = db.get(sessionToken) as AdapterSession | undefined
          if (!session) return null
          return { session, user: db.get(session.userId) as AdapterUser }
        },
        async updateSession(session) {
          return { ...(db.get(session.sessionToken) as AdapterSession), ...session }
        },
        async deleteSession(sessionToken) {
          db.delete(sessionToken)
        },
        async createVerificationToken(token: VerificationToken) {
          db.set(token.identifier, token)
          return token
        },
        async useVerificationToken({ identifier }) {
          const token = db.get(identifier) as VerificationToken | undefined
          db.delete(identifier)
          return token ?? null
        },
        async getAuthenticator(credentialID) {
          return (db.get(credentialID) as AdapterAuthenticator | undefined) ?? null
        },
      }
    }
    expectTypeOf(MyAdapter).returns.toExtend<Adapter>()
    expectTypeOf<AdapterAccountType>().toExtend<string>()
    expectTypeOf(isDate).toBeFunction()
  })
})

describe("@auth/core/types", () => {
  test("the names apps import are there", () => {
    expectTypeOf<TypesAuthConfig>().toEqualTypeOf<AuthConfig>()
    expectTypeOf<User>().toExtend<DefaultUser>()
    expectTypeOf<Session>().toExtend<DefaultSession>()
    expectTypeOf<"AccessDenied">().toExtend<ErrorPageParam>()
    expectTypeOf<"CredentialsSignin">().toExtend<SignInPageErrorParam>()
    expectTypeOf<PagesOptions["error"]>().toEqualTypeOf<string>()
    expectTypeOf<Theme["brandColor"]>().toEqualTypeOf<string | undefined>()
    expectTypeOf<CookiesOptions["sessionToken"]["name"]>().toEqualTypeOf<string>()
    expectTypeOf<Account["access_token"]>().toExtend<string | undefined>()
    expectTypeOf<Profile["email"]>().toExtend<string | null | undefined>()
  })

  test("a custom error page switches on ErrorPageParam (authjs.dev/guides/pages/error)", () => {
    const messages: Record<ErrorPageParam, string> = {
      Configuration: "There is a problem with the server configuration.",
      AccessDenied: "You do not have permission to sign in.",
      Verification: "The sign in link is no longer valid.",
    }
    expectTypeOf(messages).toExtend<Record<string, string>>()
  })
})

describe("logger (authjs.dev/guides/debugging)", () => {
  test("the guide's logger, with rest parameters, fits AuthConfig.logger", () => {
    const config: AuthConfig = {
      providers: [],
      logger: {
        error(code, ...message) {
          console.error(code, message)
        },
        warn(code, ...message) {
          console.warn(code, message)
        },
        debug(code, ...message) {
          console.debug(code, message)
        },
      },
    }
    expectTypeOf(config.logger).toExtend<Partial<LoggerInstance> | undefined>()
    expectTypeOf<Parameters<LoggerInstance["error"]>[0]>().toEqualTypeOf<Error>()
  })
})

describe("@auth/core/jwt and /errors", () => {
  test("getToken's options and results", () => {
    expectTypeOf<GetTokenParams>().toHaveProperty("secureCookie")
    expectTypeOf<GetTokenParams>().toHaveProperty("cookieName")
    expectTypeOf<GetTokenParams>().toHaveProperty("salt")
    expectTypeOf(
      getToken({ req: new Request("http://x"), secret: "s" }),
    ).resolves.toEqualTypeOf<JWT | null>()
    expectTypeOf<JWTOptions["maxAge"]>().toEqualTypeOf<number>()
  })

  test("a CredentialsSignin subclass with its code; InvalidProvider is an AuthError", () => {
    // `override`: this repository compiles with noImplicitOverride, as Auth.js's own would.
    class InvalidLoginError extends CredentialsSignin {
      override code = "Invalid identifier or password"
    }
    expectTypeOf(new InvalidLoginError().code).toEqualTypeOf<string>()
    expectTypeOf(new InvalidProvider()).toExtend<AuthError>()
  })
})

describe("provider factories (authjs.dev/reference/core/providers)", () => {
  test("the documented options, customFetch included", () => {
    const proxy: typeof fetch = (...args) => fetch(...args)
    const providers: AuthConfig["providers"] = [
      GitHub({
        clientId: "id",
        clientSecret: "secret",
        authorization: "https://github.example/login/oauth/authorize?scope=read:user",
        token: "https://github.example/login/oauth/access_token",
        userinfo: { url: "https://api.github.example/user" },
        allowDangerousEmailAccountLinking: true,
        style: { brandColor: "#24292f" },
        profile: (profile) => ({ id: String(profile.id), name: profile.login }),
        [customFetch]: proxy,
      }),
      Keycloak({
        clientId: "id",
        clientSecret: "secret",
        issuer: "https://kc.example/realms/app",
        authorization: { params: { scope: "openid email profile", prompt: "login" } },
      }),
    ]
    expectTypeOf(providers).toBeArray()
  })
})
