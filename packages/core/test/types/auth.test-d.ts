/** Type tests: `Auth()`'s overloads, `getSession()`, and `@tessera/core/jwt`. */
import { describe, expectTypeOf, test } from "vitest"
import { Auth, getSession, raw, skipCSRFCheck, type AuthConfig } from "@tessera/core"
import type { IncomingMessage } from "node:http"
import { decode, encode, getToken, type JWT } from "@tessera/core/jwt"
import type { Cookie, ResponseInternal, Session } from "@tessera/core/types"

const config = { providers: [] } satisfies AuthConfig
const request = new Request("http://localhost/auth/session")

describe("Auth()", () => {
  test("returns a Response", () => {
    expectTypeOf(Auth(request, config)).toEqualTypeOf<Promise<Response>>()
    expectTypeOf(Auth(request, { ...config, skipCSRFCheck })).toEqualTypeOf<Promise<Response>>()
  })

  test("with `raw`: the internal result, for integrations", () => {
    expectTypeOf(Auth(request, { ...config, raw })).toEqualTypeOf<Promise<ResponseInternal>>()
    expectTypeOf<ResponseInternal["status"]>().toEqualTypeOf<number | undefined>()
  })

  test("takes a Request, not a URL", () => {
    // @ts-expect-error a Request is needed
    void Auth("http://localhost/auth/session", config)
  })
})

describe("getSession()", () => {
  test("the session (or null) and the cookies to set", () => {
    expectTypeOf(getSession({ url: request.url, cookies: null }, config)).toEqualTypeOf<
      Promise<{ session: Session | null; cookies: Cookie[] }>
    >()
  })

  test("takes a Cookie header that may be absent, as Node and Hono type it", () => {
    const header = request.headers.get("cookie") ?? undefined // `req.headers.cookie`
    expectTypeOf(getSession({ url: request.url, cookies: header }, config)).toEqualTypeOf<
      Promise<{ session: Session | null; cookies: Cookie[] }>
    >()
  })
})

describe("@tessera/core/jwt", () => {
  test("encode a token to a string, decode it back", () => {
    expectTypeOf(encode({ token: { sub: "1" }, secret: "s", salt: "n" })).toEqualTypeOf<
      Promise<string>
    >()
    expectTypeOf(decode({ token: "t", secret: "s", salt: "n" })).toEqualTypeOf<
      Promise<JWT | null>
    >()
    expectTypeOf(decode<{ custom: true }>({ token: "t", secret: "s", salt: "n" })).toEqualTypeOf<
      Promise<{ custom: true } | null>
    >()
  })

  test("getToken: the decoded token, or with raw: true the raw string", () => {
    expectTypeOf(getToken({ req: request, secret: "s" })).toEqualTypeOf<Promise<JWT | null>>()
    expectTypeOf(getToken({ req: request, secret: "s", raw: true })).toEqualTypeOf<
      Promise<string | null>
    >()
  })

  test("getToken takes a node:http (and so an Express) request", () => {
    const req = {} as IncomingMessage
    expectTypeOf(getToken({ req, secret: "s" })).toEqualTypeOf<Promise<JWT | null>>()
  })

  test("getToken takes every option Auth.js's GetTokenParams has (logger included)", () => {
    getToken({
      req: request,
      secret: ["s"],
      secureCookie: true,
      cookieName: "c",
      salt: "c",
      raw: false,
      decode,
      logger: console,
    })
  })
})
