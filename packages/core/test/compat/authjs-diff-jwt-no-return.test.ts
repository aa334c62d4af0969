/**
 * Found by differential testing against `@auth/core` 0.41.3: a `jwt` callback that forgets to
 * return (`jwt({ token, user }) { if (user) { token.id = user.id; return token } }`, a common
 * slip) answers `undefined`. Neither library keeps a session then, but Auth.js logs an error
 * (`JWTSessionError`) on every session read, while Tessera ended the session without a word,
 * and at sign-in logged only its own crash ("Cannot destructure property 'iat' of 'token' as
 * it is undefined."). Both now log a `JWTSessionError` that says what the callback must answer;
 * `null` stays the quiet way to end a session.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { get, makeConfig, setsSession, signIn } from "../harness/index.js"

const advice = /jwt callback returned undefined.*return the token.*null/i

describe("a jwt callback that returns nothing", () => {
  test("at sign-in: error=Configuration, and the log says what to return", async () => {
    const { config, log } = makeConfig({ callbacks: { jwt: (() => undefined) as never } })
    const { response } = await signIn(config)
    expect(response.headers.get("location")).toMatch(/\/auth\/error\?error=Configuration$/)
    expect(setsSession(response)).toBe(false)
    expect(log.logged.map((e) => e.type)).toContain("JWTSessionError")
    expect(log.errors.map((e) => e.message).join("\n")).toMatch(advice)
    expect(log.errors.map((e) => e.message).join("\n")).not.toMatch(/destructure/)
  })

  test("after sign-in: the session ends, and the log says why", async () => {
    const { config, log } = makeConfig({
      callbacks: {
        jwt: (({ token, user }: { token: Record<string, unknown>; user?: { id: string } }) => {
          if (user) {
            token.id = user.id
            return token
          }
        }) as never,
      },
    })
    const { jar } = await signIn(config)
    const response = await Auth(get("/auth/session", { jar }), config)
    expect(await response.json()).toBeNull()
    expect(log.logged.map((e) => e.type)).toContain("JWTSessionError")
    expect(log.errors.map((e) => e.message).join("\n")).toMatch(advice)
  })

  test("null ends the session quietly, as documented", async () => {
    let signedIn = false
    const { config, log } = makeConfig({
      callbacks: {
        jwt: (({ token }: { token: Record<string, unknown> }) => {
          if (!signedIn) {
            signedIn = true
            return token
          }
          return null
        }) as never,
      },
    })
    const { jar } = await signIn(config)
    const response = await Auth(get("/auth/session", { jar }), config)
    expect(await response.json()).toBeNull()
    expect(log.errors).toEqual([])
  })
})
