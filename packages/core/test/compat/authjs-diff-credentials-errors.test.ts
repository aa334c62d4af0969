/**
 * Found by differential testing against `@auth/core` 0.41.3 (the same configuration and
 * requests sent to both libraries' `Auth()`): which `error` an app's own refusal ends in when it
 * throws one of the error classes, from `authorize` or from the `signIn` callback.
 *
 * Auth.js lets an `AuthError` thrown there through as itself (lib/actions/callback: `if (e
 * instanceof AuthError) throw e`) and shows its type when it is one the client may see:
 * - `authorize` throwing `AccessDenied` (a blocked or banned user) ends on the error page with
 *   `error=AccessDenied` (403 page "you do not have permission"); Tessera said
 *   `error=Configuration` (the "server problem" page) for it;
 * - the `signIn` callback throwing a `CredentialsSignin` (subclass, with its `code`) ends on the
 *   sign-in page with `error=CredentialsSignin&code=...`, as if `authorize` had thrown it;
 *   Tessera said `error=AccessDenied`.
 * Any other throw stays `error=Configuration` from `authorize` (nothing of the error reaches the
 * URL) and `error=AccessDenied` from the `signIn` callback (Tessera's documented rule).
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { AccessDenied, AuthError, CredentialsSignin } from "@tessera/core/errors"
import Credentials from "@tessera/core/providers/credentials"
import { ORIGIN, csrfToken, makeConfig, post, setsSession } from "../harness/index.js"

class Blocked extends CredentialsSignin {
  override code = "blocked"
}
class Banned extends AuthError {
  static override type = "Banned"
}

function config(overrides: Partial<AuthConfig>, authorize: () => unknown) {
  return makeConfig({
    providers: [Credentials({ credentials: { username: {} }, authorize: authorize as never })],
    ...overrides,
  }).config
}

const ada = () => ({ id: "1", name: "Ada", email: "ada@example.com" })

/** The form POST, then the same with `X-Auth-Return-Redirect: 1` (Auth.js's `redirect: false`). */
async function attempt(config: AuthConfig, username: string) {
  const { token, jar } = await csrfToken(config)
  const form = await Auth(
    post(
      "/auth/callback/credentials",
      { csrfToken: token, username, callbackUrl: "/after" },
      { jar },
    ),
    config,
  )
  const json = await Auth(
    post(
      "/auth/callback/credentials",
      { csrfToken: token, username: `${username}-2`, callbackUrl: "/after" },
      { jar, headers: { "X-Auth-Return-Redirect": "1" } },
    ),
    config,
  )
  expect(form.status).toBe(302)
  expect(setsSession(form)).toBe(false)
  expect(json.status).toBe(200)
  const { url } = (await json.json()) as { url: string }
  expect(url).toBe(form.headers.get("location"))
  return url
}

describe("authorize throws", () => {
  test("AccessDenied: the error page with error=AccessDenied (Auth.js)", async () => {
    const url = await attempt(
      config({}, () => {
        throw new AccessDenied("banned user")
      }),
      "ada",
    )
    expect(url).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
  })

  test("AccessDenied with pages.error: the app's page with error=AccessDenied", async () => {
    const url = await attempt(
      config({ pages: { error: "/oops" } }, () => {
        throw new AccessDenied()
      }),
      "ada",
    )
    expect(url).toBe(`${ORIGIN}/oops?error=AccessDenied`)
  })

  test("another AuthError or a plain Error: still error=Configuration, as in Auth.js", async () => {
    for (const error of [new Banned("x"), new Error("database down")]) {
      const url = await attempt(
        config({}, () => {
          throw error
        }),
        "ada",
      )
      expect(url).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    }
  })
})

describe("the signIn callback throws (credentials sign-in)", () => {
  test("a CredentialsSignin subclass: the sign-in page with its code (Auth.js)", async () => {
    const url = await attempt(
      config(
        {
          callbacks: {
            signIn() {
              throw new Blocked()
            },
          },
        },
        ada,
      ),
      "ada",
    )
    expect(url).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=blocked`)
  })

  test("anything else: error=AccessDenied (Tessera's rule for every flow)", async () => {
    for (const error of [new Banned("x"), new Error("boom"), new AccessDenied()]) {
      const url = await attempt(
        config(
          {
            callbacks: {
              signIn() {
                throw error
              },
            },
          },
          ada,
        ),
        "ada",
      )
      expect(url).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    }
  })
})
