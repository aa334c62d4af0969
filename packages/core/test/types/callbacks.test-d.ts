/** Type tests: the parameters each callback and event receives, and what it may return. */
import { describe, expectTypeOf, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type { AdapterSession, AdapterUser } from "@tessera/core/adapters"
import type { JWT } from "@tessera/core/jwt"
import type { Account, Awaitable, Profile, Session, User } from "@tessera/core/types"

type Callbacks = NonNullable<AuthConfig["callbacks"]>
type Events = NonNullable<AuthConfig["events"]>

describe("callbacks", () => {
  test("signIn: user, account, profile, email, credentials; answers a boolean or a URL", () => {
    type Params = Parameters<NonNullable<Callbacks["signIn"]>>[0]
    expectTypeOf<Params["user"]>().toEqualTypeOf<User | AdapterUser>()
    expectTypeOf<Params["account"]>().toEqualTypeOf<Account | null>()
    expectTypeOf<Params["profile"]>().toEqualTypeOf<Profile | undefined>()
    expectTypeOf<Params["credentials"]>().toEqualTypeOf<Record<string, unknown> | undefined>()
    expectTypeOf<ReturnType<NonNullable<Callbacks["signIn"]>>>().toEqualTypeOf<
      Awaitable<boolean | string>
    >()
  })

  test("redirect: url and baseUrl in, a URL out", () => {
    expectTypeOf<NonNullable<Callbacks["redirect"]>>().toEqualTypeOf<
      (params: { url: string; baseUrl: string }) => Awaitable<string>
    >()
  })

  test("jwt: token, user, account, profile, trigger; null ends the session", () => {
    type Params = Parameters<NonNullable<Callbacks["jwt"]>>[0]
    expectTypeOf<Params["token"]>().toEqualTypeOf<JWT>()
    expectTypeOf<Params["trigger"]>().toEqualTypeOf<"signIn" | "signUp" | "update" | undefined>()
    expectTypeOf<Params["isNewUser"]>().toEqualTypeOf<boolean | undefined>()
    expectTypeOf<ReturnType<NonNullable<Callbacks["jwt"]>>>().toEqualTypeOf<Awaitable<JWT | null>>()
  })

  test("session: session, token (JWT strategy) and user (database strategy)", () => {
    type Params = Parameters<NonNullable<Callbacks["session"]>>[0]
    // As Auth.js types it: `session.user` is there, so its guides' `session.user.id = ...` compiles.
    expectTypeOf<Params["session"]>().toEqualTypeOf<
      { user: AdapterUser } & AdapterSession & Session
    >()
    expectTypeOf<Params["session"]["user"]["id"]>().toEqualTypeOf<string>()
    expectTypeOf<Params["token"]>().toEqualTypeOf<JWT>()
    expectTypeOf<Params["user"]>().toEqualTypeOf<AdapterUser>()
  })

  test("callbacks written inline get their parameter types from the config", () => {
    const config: AuthConfig = {
      providers: [],
      callbacks: {
        jwt({ token, user, trigger }) {
          expectTypeOf(token).toEqualTypeOf<JWT>()
          expectTypeOf(user).toEqualTypeOf<User | AdapterUser>()
          if (trigger === "update") return null
          return { ...token, role: "admin" }
        },
        session({ session, token }) {
          expectTypeOf(session.expires).toBeString()
          return { ...session, role: token.role }
        },
        signIn: ({ account }) => account?.provider !== "blocked",
      },
    }
    void config
  })

  test("a callback with the wrong return type is refused", () => {
    const config: AuthConfig = {
      providers: [],
      // @ts-expect-error signIn answers a boolean or a URL string
      callbacks: { signIn: () => 42 },
    }
    void config
  })
})

describe("events", () => {
  test("signIn and signOut messages", () => {
    type SignIn = Parameters<NonNullable<Events["signIn"]>>[0]
    expectTypeOf<SignIn["user"]>().toEqualTypeOf<User>()
    expectTypeOf<SignIn["account"]>().toEqualTypeOf<Account | null>()
    expectTypeOf<ReturnType<NonNullable<Events["signIn"]>>>().toExtend<Awaitable<void>>()
  })
})
