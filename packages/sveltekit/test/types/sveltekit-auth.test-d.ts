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

describe("@tessera/sveltekit/client type names", () => {
  test("the names @auth/sveltekit/client exports, so an app's type imports move over unchanged", () => {
    type Client = typeof import("@tessera/sveltekit/client")
    type SignInOptions = import("@tessera/sveltekit/client").SignInOptions
    type SignInFalse = import("@tessera/sveltekit/client").SignInOptions<false>
    type SignInResponse = import("@tessera/sveltekit/client").SignInResponse
    type SignOutParams = import("@tessera/sveltekit/client").SignOutParams
    type SignOutResponse = import("@tessera/sveltekit/client").SignOutResponse
    type AuthorizationParams = import("@tessera/sveltekit/client").SignInAuthorizationParams
    expectTypeOf<Parameters<Client["signIn"]>[1]>().toEqualTypeOf<SignInOptions | undefined>()
    expectTypeOf<SignInFalse>().toEqualTypeOf<SignInOptions>()
    expectTypeOf<Parameters<Client["signIn"]>[2]>().toEqualTypeOf<AuthorizationParams | undefined>()
    expectTypeOf<Awaited<ReturnType<Client["signIn"]>>>().toEqualTypeOf<
      SignInResponse | undefined
    >()
    expectTypeOf<Parameters<Client["signOut"]>[0]>().toEqualTypeOf<SignOutParams | undefined>()
    expectTypeOf<Awaited<ReturnType<Client["signOut"]>>>().toEqualTypeOf<
      SignOutResponse | undefined
    >()
    // As in Auth.js: a response carries the outcome the page shows.
    expectTypeOf<SignInResponse>().toHaveProperty("error")
    expectTypeOf<SignOutResponse>().toHaveProperty("url")
  })

  test("@tessera/core/providers names ProviderId, the first parameter of signIn in Auth.js", () => {
    type ProviderId = import("@tessera/core/providers").ProviderId
    expectTypeOf<"github">().toExtend<ProviderId>()
    expectTypeOf<ProviderId>().toExtend<string>()
  })
})
