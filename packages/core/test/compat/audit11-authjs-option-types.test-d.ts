/**
 * Type tests (against the built declarations): `PagesOptions`, `CookiesOptions` and
 * `SessionOptions` as the spec and Auth.js define them. An app that annotates an object with
 * Auth.js's five pages, seven cookies or four session options compiles; Tessera's additions
 * (the `twoFactor` page and cookie, `absoluteMaxAge`, `revalidateAge`, `recentSignInAge`) are
 * optional, as additions to an Auth.js type must be.
 */
import { expectTypeOf, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type {
  CookieOption,
  CookiesOptions,
  PagesOptions,
  SessionOptions,
} from "@tessera/core/types"

test("PagesOptions with Auth.js's five pages type-checks", () => {
  const pages: PagesOptions = {
    signIn: "/login",
    signOut: "/logout",
    error: "/oops",
    verifyRequest: "/check-your-mail",
    newUser: "/welcome",
  }
  const config: Pick<AuthConfig, "pages"> = { pages }
  expectTypeOf(config.pages).toEqualTypeOf<Partial<PagesOptions> | undefined>()
  expectTypeOf<PagesOptions["twoFactor"]>().toEqualTypeOf<string | undefined>()
})

test("CookiesOptions with Auth.js's seven cookies type-checks", () => {
  const cookie = (name: string): CookieOption => ({ name, options: { path: "/" } })
  const cookies: CookiesOptions = {
    sessionToken: cookie("s"),
    callbackUrl: cookie("c"),
    csrfToken: cookie("x"),
    pkceCodeVerifier: cookie("p"),
    state: cookie("st"),
    nonce: cookie("n"),
    webauthnChallenge: cookie("w"),
  }
  const config: Pick<AuthConfig, "cookies"> = { cookies }
  expectTypeOf(config).toHaveProperty("cookies")
  expectTypeOf<CookiesOptions["twoFactor"]>().toEqualTypeOf<CookieOption | undefined>()
})

test("SessionOptions with Auth.js's four options type-checks", () => {
  const session: SessionOptions = {
    strategy: "database",
    maxAge: 30 * 24 * 60 * 60,
    updateAge: 24 * 60 * 60,
    generateSessionToken: () => crypto.randomUUID(),
  }
  const config: Pick<AuthConfig, "session"> = { session }
  expectTypeOf(config).toHaveProperty("session")
  expectTypeOf<SessionOptions["absoluteMaxAge"]>().toEqualTypeOf<number | undefined>()
  expectTypeOf<SessionOptions["recentSignInAge"]>().toEqualTypeOf<number | undefined>()
})
