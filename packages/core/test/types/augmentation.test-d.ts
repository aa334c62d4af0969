/**
 * Type tests: module augmentation, the way Auth.js apps extend `Session`, `User` and
 * `JWT` (`declare module "@tessera/core/types"` / `"@tessera/core/jwt"`). The fields
 * declared here reach every place the types appear: callbacks, `getSession()`, adapters.
 * (Augmentation is global to the type-check run: the fields below exist in every type
 * test file; none of them asserts their absence.)
 */
import { describe, expectTypeOf, test } from "vitest"
import { getSession, type AuthConfig } from "@tessera/core"
import type { AdapterUser } from "@tessera/core/adapters"
import type { JWT } from "@tessera/core/jwt"
import type { DefaultSession, Session, User } from "@tessera/core/types"

declare module "@tessera/core/types" {
  interface Session {
    user: { role: "admin" | "member" } & DefaultSession["user"]
    accessToken?: string
  }
  interface User {
    role?: "admin" | "member"
  }
}

declare module "@tessera/core/jwt" {
  interface JWT {
    role?: "admin" | "member"
  }
}

describe("module augmentation", () => {
  test("Session gains the declared fields and keeps the default ones", () => {
    expectTypeOf<Session["user"]["role"]>().toEqualTypeOf<"admin" | "member">()
    expectTypeOf<Session["accessToken"]>().toEqualTypeOf<string | undefined>()
    expectTypeOf<Session["expires"]>().toBeString()
    expectTypeOf<NonNullable<Session["user"]>["email"]>().toEqualTypeOf<string | null | undefined>()
  })

  test("User and AdapterUser gain `role`", () => {
    expectTypeOf<User["role"]>().toEqualTypeOf<"admin" | "member" | undefined>()
    expectTypeOf<AdapterUser["role"]>().toEqualTypeOf<"admin" | "member" | undefined>()
  })

  test("JWT gains `role`, still open to other claims", () => {
    expectTypeOf<JWT["role"]>().toEqualTypeOf<"admin" | "member" | undefined>()
    expectTypeOf<JWT["sub"]>().toEqualTypeOf<string | undefined>()
  })

  test("callbacks see the augmented types", () => {
    const config: AuthConfig = {
      providers: [],
      callbacks: {
        jwt({ token, user }) {
          if (user) token.role = user.role
          expectTypeOf(token.role).toEqualTypeOf<"admin" | "member" | undefined>()
          return token
        },
        session({ session, token }) {
          session.user.role = token.role ?? "member"
          return session
        },
      },
    }
    void config
  })

  test("getSession() returns the augmented Session", async () => {
    const { session } = await getSession(
      { url: "http://localhost/", cookies: null },
      {
        providers: [],
      },
    )
    expectTypeOf(session?.user.role).toEqualTypeOf<"admin" | "member" | undefined>()
  })
})
