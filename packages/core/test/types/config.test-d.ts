/**
 * Type tests of the public configuration (`vitest --typecheck`): what `AuthConfig` and
 * the provider factories accept and infer. They run against the built declarations
 * (`dist/*.d.ts`), as an app that installed the packages sees them.
 */
import { describe, expectTypeOf, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import Credentials from "@tessera/core/providers/credentials"
import GitHub, { type GitHubProfile } from "@tessera/core/providers/github"
import Google, { type GoogleProfile } from "@tessera/core/providers/google"
import Nodemailer from "@tessera/core/providers/nodemailer"
import Passkey from "@tessera/core/providers/passkey"
import type { OAuthConfig, OIDCConfig } from "@tessera/core/providers"
import type { User } from "@tessera/core/types"

describe("AuthConfig", () => {
  test("providers is the only required option", () => {
    expectTypeOf<{ providers: [] }>().toExtend<AuthConfig>()
    expectTypeOf<{ secret: string }>().not.toExtend<AuthConfig>()
  })

  test("the Auth.js v5 option names and their types", () => {
    expectTypeOf<AuthConfig["secret"]>().toEqualTypeOf<string | string[] | undefined>()
    expectTypeOf<AuthConfig["trustHost"]>().toEqualTypeOf<boolean | undefined>()
    expectTypeOf<AuthConfig["basePath"]>().toEqualTypeOf<string | undefined>()
    expectTypeOf<AuthConfig["adapter"]>().toEqualTypeOf<Adapter | undefined>()
    expectTypeOf<NonNullable<AuthConfig["session"]>["strategy"]>().toEqualTypeOf<
      "jwt" | "database" | undefined
    >()
    expectTypeOf<NonNullable<AuthConfig["session"]>["maxAge"]>().toEqualTypeOf<number | undefined>()
  })

  test("a literal configuration with every kind of provider type-checks", () => {
    const config = {
      secret: "x".repeat(32),
      providers: [
        GitHub({ clientId: "id", clientSecret: "secret" }),
        GitHub, // the factory itself: called with no options, credentials from the environment
        Google({ clientId: "id", clientSecret: "secret" }),
        Credentials({
          credentials: { username: { label: "User" } },
          authorize: () => null,
        }),
        Nodemailer({ server: "smtp://localhost:25", from: "auth@example.com" }),
        Passkey(),
      ],
      session: { strategy: "jwt", maxAge: 3600 },
      pages: { signIn: "/login" },
    } satisfies AuthConfig
    expectTypeOf(config).toExtend<AuthConfig>()
  })

  test("wrong option types are refused", () => {
    // @ts-expect-error strategy is "jwt" or "database"
    const badStrategy: AuthConfig = { providers: [], session: { strategy: "cookie" } }
    // @ts-expect-error maxAge is a number of seconds
    const badMaxAge: AuthConfig = { providers: [], session: { maxAge: "30d" } }
    void badStrategy
    void badMaxAge
  })
})

describe("provider factories", () => {
  test("OAuth factories return a config typed with their profile", () => {
    expectTypeOf(GitHub({})).toEqualTypeOf<OAuthConfig<GitHubProfile>>()
    expectTypeOf(Google({})).toExtend<OIDCConfig<GoogleProfile> | OAuthConfig<GoogleProfile>>()
  })

  test("profile() receives the provider's profile type and returns a user", () => {
    GitHub({
      profile(profile) {
        expectTypeOf(profile).toEqualTypeOf<GitHubProfile>()
        expectTypeOf(profile.login).toBeString()
        return { id: String(profile.id), name: profile.name, email: profile.email }
      },
    })
  })

  test("a narrower profile type parameter flows into profile()", () => {
    interface WithOrg extends GitHubProfile {
      org: string
    }
    GitHub<WithOrg>({
      profile(profile) {
        expectTypeOf(profile.org).toBeString()
        return { id: profile.org }
      },
    })
  })

  test("credentials: authorize gets the declared fields and the request, returns a user or null", () => {
    Credentials({
      credentials: { email: { label: "E-mail" }, password: { type: "password" } },
      authorize(credentials, request) {
        expectTypeOf(credentials).toEqualTypeOf<Partial<Record<"email" | "password", unknown>>>()
        expectTypeOf(request).toEqualTypeOf<Request>()
        return null
      },
    })
    type Authorize = NonNullable<Parameters<typeof Credentials>[0]>["authorize"]
    expectTypeOf<ReturnType<NonNullable<Authorize>>>().toExtend<
      User | null | PromiseLike<User | null>
    >()
  })
})
