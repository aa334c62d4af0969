/**
 * Issue 11 ("Auth.js drop-in"), tested as an outsider would: from the issue's
 * text and docs/migrating-from-authjs.md only, through the public entry points
 * and `Auth()` with real `Request`s. Expectations about Auth.js's surface are
 * those of @auth/core 0.41.3 (its provider modules, its `errors` and `jwt`).
 *
 * Only what the other suites do not already check is kept here: the rest of
 * the issue's list (environment, rotation, trustHost, createActionURL, the
 * flows' Auth.js behaviours) is in test/config/env.test.ts, handler.test.ts,
 * compat/ and flows/.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import * as errors from "@tessera/core/errors"
import { decode, encode } from "@tessera/core/jwt"
import Nodemailer from "@tessera/core/providers/nodemailer"
import Resend from "@tessera/core/providers/resend"
import { SECRET, get, makeConfig, setCookie, signIn } from "../harness/index.js"

describe("provider factories and error classes, as Auth.js has them", () => {
  test("the e-mail providers keep Auth.js's ids and names (GET /auth/providers shows them)", async () => {
    expect(Nodemailer({ server: "smtp://localhost:25" })).toMatchObject({
      id: "nodemailer",
      type: "email",
      name: "Nodemailer",
    })
    expect(Resend({ apiKey: "re_x" })).toMatchObject({
      id: "resend",
      type: "email",
      name: "Resend",
    })
    const { config } = makeConfig({
      providers: [Nodemailer({ server: "smtp://localhost:25", sendVerificationRequest() {} })],
      session: { strategy: "jwt" },
      adapter: {
        createVerificationToken: async () => null,
        useVerificationToken: async () => null,
        getUserByEmail: async () => null,
        createUser: async (user) => ({ ...user, id: "1" }),
      },
    })
    const providers = await (await Auth(get("/auth/providers"), config)).json()
    expect(providers).toMatchObject({ nodemailer: { id: "nodemailer", name: "Nodemailer" } })
  })

  test("SignInError's instances are of type AuthError, as in Auth.js", () => {
    expect(new errors.SignInError("x").type).toBe("AuthError")
  })

  // Server faults: Auth.js's `isClientError` is false for them, and so is Tessera's.
  test.each([
    "AdapterError",
    "CallbackRouteError",
    "InvalidEndpoints",
    "MissingSecret",
    "OAuthSignInError",
    "SessionTokenError",
  ] as const)("isClientError(new %s()) is false, as in Auth.js", (name) => {
    expect(errors.isClientError(new errors[name]("x"))).toBe(false)
  })

  // The migration guide's row: every failure a request caused counts, these four too.
  test.each(["EmailSignInError", "InvalidCheck", "UnknownAction", "UntrustedHost"] as const)(
    "isClientError(new %s()) is true in Tessera, as the migration guide says",
    (name) => {
      expect(errors.isClientError(new errors[name]("x"))).toBe(true)
    },
  )
})

describe("the migration guide's cookie preset", () => {
  test("cookies.sessionToken.name keeps Auth.js's session cookie name for good", async () => {
    const { config } = makeConfig({
      cookies: { sessionToken: { name: "authjs.session-token" } },
    })
    const { response, jar } = await signIn(config)
    expect(setCookie(response, "authjs.session-token")?.value).toBeTruthy()
    expect(jar.has("tessera.session-token")).toBe(false)
    const session = await Auth(get("/auth/session", { jar }), config)
    expect(((await session.json()) as { user: { name: string } }).user.name).toBe("Ada Lovelace")
  })
})

describe("@tessera/core/jwt as Auth.js v5 has it", () => {
  test("encode and decode without a salt throw (Auth.js v5 needs one), instead of a token nothing reads", async () => {
    await expect(encode({ token: { sub: "1" }, secret: SECRET } as never)).rejects.toThrow(/salt/)
    const token = await encode({
      token: { sub: "1" },
      secret: SECRET,
      salt: "tessera.session-token",
    })
    await expect(decode({ token, secret: SECRET } as never)).rejects.toThrow(/salt/)
    // No token: null, as in Auth.js (checked before the salt).
    expect(await decode({ token: undefined, secret: SECRET } as never)).toBeNull()
  })
})
