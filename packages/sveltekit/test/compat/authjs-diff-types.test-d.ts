/**
 * Found by comparing @auth/sveltekit 1.11.3's declarations with Tessera's (see
 * bench/compat-diff-integrations.mjs): code written against Auth.js's types that did not
 * compile with the imports changed.
 * - The client's `signIn(provider, { redirect: false })` and `signOut({ redirect: false })`
 *   resolve to a result, never `undefined` (Auth.js's overloads): `res.error` compiles.
 * - `App.PageData` has `session?: Session | null` (`$page.data.session`).
 */
import { describe, expectTypeOf, test } from "vitest"
import { signIn, signOut, type SignInResponse } from "@tessera/sveltekit/client"
import type { Session } from "@tessera/sveltekit"

describe("Auth.js's client and App types", () => {
  test("signIn with redirect: false resolves to the result", async () => {
    const res = await signIn("credentials", { username: "ada", password: "pw", redirect: false })
    expectTypeOf(res).toEqualTypeOf<SignInResponse>()
    expectTypeOf(res.error).toEqualTypeOf<string | undefined>()
    expectTypeOf(res.ok).toEqualTypeOf<boolean>()
    const oauth = await signIn("github", { redirect: false }, { prompt: "login" })
    expectTypeOf(oauth.url).toEqualTypeOf<string | null>()
  })

  test("SignInResponse has Auth.js's fields, of Auth.js's types", () => {
    // @auth/sveltekit 1.11.3's declaration, field for field.
    interface AuthjsSignInResponse {
      error: string | undefined
      code: string | undefined
      status: number
      ok: boolean
      url: string | null
    }
    expectTypeOf<SignInResponse>().toEqualTypeOf<AuthjsSignInResponse>()
  })

  test("signOut with redirect: false resolves to the result", async () => {
    const res = await signOut({ redirect: false })
    expectTypeOf(res.url).toEqualTypeOf<string | null>()
  })

  test("App.PageData carries the session", () => {
    expectTypeOf<App.PageData["session"]>().toEqualTypeOf<Session | null | undefined>()
  })
})
