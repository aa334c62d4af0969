/**
 * Type tests of `SvelteKitAuth` (`vitest --typecheck`, against the built package): the
 * input forms Auth.js accepts, what comes back, and `event.locals.auth()`.
 */
import type { Action, Handle, RequestEvent } from "@sveltejs/kit"
import { describe, expectTypeOf, test } from "vitest"
import Credentials from "@tessera/core/providers/credentials"
import {
  CredentialsSignin,
  SvelteKitAuth,
  type Session,
  type SvelteKitAuthConfig,
} from "@tessera/sveltekit"

const providers = [Credentials({ credentials: {}, authorize: () => null })]

describe("SvelteKitAuth", () => {
  test("takes a configuration object", () => {
    const auth = SvelteKitAuth({ providers, trustHost: true })
    expectTypeOf(auth.handle).toEqualTypeOf<Handle>()
    expectTypeOf(auth.signIn).toEqualTypeOf<Action>()
    expectTypeOf(auth.signOut).toEqualTypeOf<Action>()
  })

  test("or an async function of the request event (lazy initialisation)", () => {
    SvelteKitAuth(async (event) => {
      expectTypeOf(event).toEqualTypeOf<RequestEvent>()
      return { providers, secret: event.platform ? "from-platform" : undefined }
    })
  })

  test("the configuration has no `raw`: the integration decides the response", () => {
    expectTypeOf<SvelteKitAuthConfig>().not.toHaveProperty("raw")
    // @ts-expect-error raw is not an option here
    SvelteKitAuth({ providers, raw: Symbol() })
  })

  test("re-exports the error classes and the core types", () => {
    expectTypeOf(new CredentialsSignin()).toExtend<Error>()
    expectTypeOf<Session["expires"]>().toBeString()
  })
})

describe("event.locals.auth()", () => {
  test("is declared on App.Locals and returns the session or null", () => {
    expectTypeOf<App.Locals["auth"]>().toEqualTypeOf<() => Promise<Session | null>>()
  })
})

describe("@tessera/sveltekit/webauthn", () => {
  test("exports signIn for passkeys, as @auth/sveltekit/webauthn does", async () => {
    const webauthn = await import("@tessera/sveltekit/webauthn")
    const client = await import("@tessera/sveltekit/client")
    expectTypeOf(webauthn.signIn).toEqualTypeOf(client.signIn)
  })
})
