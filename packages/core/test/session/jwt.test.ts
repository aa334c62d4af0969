/**
 * JWT sessions through `Auth()`: the session action, the `jwt` and `session`
 * callbacks, `maxAge`/`updateAge`, re-issuing only when needed, updates, bad
 * cookies, sign-out, and `getSession()`.
 */
import { afterEach, describe, expect, test, vi } from "vitest"
import { Auth, getSession, type AuthConfig } from "@tessera/core"
import { decode, encode, type JWT } from "@tessera/core/jwt"
import {
  ADA,
  HTTPS_ORIGIN,
  type Jar,
  ORIGIN,
  SECRET,
  csrfToken,
  get,
  isExpired,
  makeConfig,
  post,
  setCookie,
  setCookies,
  signIn,
} from "../harness/index.js"

const COOKIE = "tessera.session-token"
const DAY = 24 * 60 * 60

afterEach(() => {
  vi.useRealTimers()
})

async function session(config: AuthConfig, jar: Jar, origin = ORIGIN) {
  const response = await Auth(get("/auth/session", { jar, origin }), config)
  return {
    response,
    body: (await response.json()) as { user?: Record<string, unknown>; expires: string } | null,
  }
}

/** `jwt.encode`/`decode` wrappers that count calls and keep the defaults' behaviour. */
function countingJwt() {
  const calls = { encode: 0, decode: 0 }
  return {
    calls,
    jwt: {
      encode: (params: Parameters<typeof encode>[0]) => (calls.encode++, encode(params)),
      decode: (params: Parameters<typeof decode>[0]) => (calls.decode++, decode(params)),
    },
  }
}

describe("the session action", () => {
  test("after sign-in: user and an ISO expires 30 days out, with no-store headers", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    const { response, body } = await session(config, jar)
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(response.headers.get("expires")).toBe("0")
    expect(response.headers.get("pragma")).toBe("no-cache")
    expect(body).toEqual({
      user: { name: ADA.name, email: ADA.email, image: ADA.image },
      expires: expect.any(String),
    })
    expect(body!.expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const ms = Date.parse(body!.expires) - Date.now()
    expect(Math.abs(ms - 30 * DAY * 1000)).toBeLessThan(5000)
  })

  test("without a cookie: null, same headers, no cookie set", async () => {
    const { config } = makeConfig()
    const response = await Auth(get("/auth/session"), config)
    expect(await response.json()).toBeNull()
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(response.headers.get("pragma")).toBe("no-cache")
    expect(setCookies(response)).toEqual([])
  })

  test("the sign-in cookie: HttpOnly, SameSite=Lax, Path=/, Max-Age 30 days", async () => {
    const { config } = makeConfig()
    const { response } = await signIn(config)
    const cookie = setCookie(response, COOKIE)!
    expect(cookie.attributes).toMatchObject({
      httponly: true,
      samesite: "Lax",
      path: "/",
      "max-age": String(30 * DAY),
    })
    expect(cookie.attributes.secure).toBeUndefined()
    const payload = await decode({ token: cookie.value, secret: SECRET, salt: COOKIE })
    expect(payload).toMatchObject({
      name: ADA.name,
      email: ADA.email,
      picture: ADA.image,
      sub: ADA.id,
    })
  })

  test("a plain check does one decrypt and no encrypt, and sets no cookie", async () => {
    const { calls, jwt } = countingJwt()
    const { config } = makeConfig({ jwt })
    const { jar } = await signIn(config)
    expect(calls).toEqual({ encode: 1, decode: 0 })
    for (let i = 0; i < 10; i++) {
      const { response, body } = await session(config, jar)
      expect(body!.user!.email).toBe(ADA.email)
      expect(setCookies(response)).toEqual([])
    }
    expect(calls).toEqual({ encode: 1, decode: 10 })
  })

  test("the token's own exp is the session's expires when nothing is re-issued", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    const payload = await decode({ token: jar.get(COOKIE), secret: SECRET, salt: COOKIE })
    const { body } = await session(config, jar)
    expect(body!.expires).toBe(new Date(payload!.exp! * 1000).toISOString())
  })
})

describe("updateAge and maxAge", () => {
  test("the cookie is re-issued once updateAge (24 h) has passed, with a later expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Date.now()
    const { calls, jwt } = countingJwt()
    // An absolute lifetime beyond maxAge, so the sliding expiry shows in full.
    const { config } = makeConfig({ jwt, session: { absoluteMaxAge: 90 * DAY } })
    const { jar } = await signIn(config)
    const first = await decode({ token: jar.get(COOKIE), secret: SECRET, salt: COOKIE })

    vi.setSystemTime(start + (DAY - 60) * 1000)
    const early = await session(config, jar)
    expect(setCookies(early.response)).toEqual([])

    vi.setSystemTime(start + (DAY + 60) * 1000)
    const late = await session(config, jar)
    const reissued = setCookie(late.response, COOKIE)!
    expect(reissued.attributes["max-age"]).toBe(String(30 * DAY))
    expect(calls.encode).toBe(2)
    const second = await decode({ token: reissued.value, secret: SECRET, salt: COOKIE })
    expect(second!.exp! - first!.exp!).toBeGreaterThanOrEqual(DAY)
    expect(second!.sub).toBe(first!.sub)
    expect(Date.parse(late.body!.expires)).toBe(second!.exp! * 1000)
  })

  test("custom maxAge and updateAge", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Date.now()
    const { config } = makeConfig({ session: { maxAge: 3600, updateAge: 60 } })
    const { jar, response } = await signIn(config)
    expect(setCookie(response, COOKIE)!.attributes["max-age"]).toBe("3600")
    const payload = await decode({ token: jar.get(COOKIE), secret: SECRET, salt: COOKIE })
    expect(payload!.exp! - payload!.iat!).toBe(3600)

    vi.setSystemTime(start + 30_000)
    expect(setCookies((await session(config, jar)).response)).toEqual([])
    vi.setSystemTime(start + 61_000)
    const refreshed = await session(config, jar)
    expect(setCookie(refreshed.response, COOKIE)!.attributes["max-age"]).toBe("3600")
    jar.update(refreshed.response)

    // Past maxAge without a visit, the session is gone (jose's 15 s clock tolerance aside).
    vi.setSystemTime(start + 61_000 + 3600_000 + 20_000)
    const gone = await session(config, jar)
    expect(gone.body).toBeNull()
    expect(isExpired(setCookie(gone.response, COOKIE)!)).toBe(true)
  })

  test("jwt.maxAge overrides session.maxAge for the token", async () => {
    const { config } = makeConfig({ session: { maxAge: 3600 }, jwt: { maxAge: 120 } })
    const { response } = await signIn(config)
    expect(setCookie(response, COOKIE)!.attributes["max-age"]).toBe("120")
  })
})

describe("jwt callback", () => {
  test("trigger signIn on sign-in, with user and account; nothing on a check", async () => {
    const seen: Array<Record<string, unknown>> = []
    const { config } = makeConfig({
      callbacks: {
        jwt: (params) => {
          seen.push({ ...params, token: { ...params.token } })
          return params.token
        },
      },
    })
    const { jar } = await signIn(config)
    await session(config, jar)
    expect(seen[0]).toMatchObject({
      trigger: "signIn",
      isNewUser: false,
      user: { id: ADA.id, email: ADA.email },
      account: { type: "credentials", provider: "credentials", providerAccountId: ADA.id },
      token: { name: ADA.name, email: ADA.email, picture: ADA.image, sub: ADA.id },
    })
    expect(seen[1]!.trigger).toBeUndefined()
    expect(seen[1]!.user).toBeUndefined()
    expect(seen[1]!.token).toMatchObject({
      sub: ADA.id,
      iat: expect.any(Number),
      exp: expect.any(Number),
    })
  })

  test("a changed token is re-issued; a copy with the same claims is not", async () => {
    let mode: "copy" | "change" | "mutate" = "copy"
    const { calls, jwt } = countingJwt()
    const { config } = makeConfig({
      jwt,
      callbacks: {
        jwt: ({ token }) => {
          if (mode === "copy") return { ...token }
          if (mode === "mutate") {
            token.visits = ((token.visits as number) ?? 0) + 1
            return token
          }
          return { ...token, role: "admin" }
        },
      },
    })
    const { jar } = await signIn(config)
    const before = calls.encode
    expect(setCookies((await session(config, jar)).response)).toEqual([])
    expect(calls.encode).toBe(before)

    mode = "change"
    const changed = await session(config, jar)
    const cookie = setCookie(changed.response, COOKIE)!
    expect((await decode({ token: cookie.value, secret: SECRET, salt: COOKIE }))!.role).toBe(
      "admin",
    )

    mode = "mutate"
    const mutated = await session(config, jar)
    expect(
      (await decode({
        token: setCookie(mutated.response, COOKIE)!.value,
        secret: SECRET,
        salt: COOKIE,
      }))!.visits,
    ).toBe(1)
  })

  test("returning null ends the session: cookie cleared, null returned", async () => {
    let end = false
    const { config } = makeConfig({ callbacks: { jwt: ({ token }) => (end ? null : token) } })
    const { jar } = await signIn(config)
    end = true
    const { response, body } = await session(config, jar)
    expect(body).toBeNull()
    const cleared = setCookie(response, COOKIE)!
    expect(isExpired(cleared)).toBe(true)
    expect(cleared.attributes).toMatchObject({ httponly: true, path: "/" })
  })

  test("returning null at sign-in sets no session", async () => {
    const { config } = makeConfig({ callbacks: { jwt: () => null } })
    const { response, jar } = await signIn(config)
    expect(response.status).toBe(302)
    expect(jar.get(COOKIE)).toBeUndefined()
  })

  test("a throwing callback ends the session and is logged as JWTSessionError with its cause", async () => {
    let fail = false
    const { config, log } = makeConfig({
      callbacks: {
        jwt: ({ token }) => {
          if (fail) throw new Error("callback broke")
          return token
        },
      },
    })
    const { jar } = await signIn(config)
    fail = true
    const { response, body } = await session(config, jar)
    expect(response.status).toBe(200)
    expect(body).toBeNull()
    expect(isExpired(setCookie(response, COOKIE)!)).toBe(true)
    expect(log.errors[0]).toMatchObject({ type: "JWTSessionError" })
    expect((log.errors[0]!.cause as { err: Error }).err.message).toBe("callback broke")
  })
})

describe("session callback", () => {
  test("shapes the response and receives the token", async () => {
    const { config } = makeConfig({
      callbacks: {
        jwt: ({ token, user }) => (user ? { ...token, role: "editor" } : token),
        session: ({ session, token }) =>
          ({ ...session, user: { ...session.user, id: token.sub }, role: token.role }) as any,
      },
    })
    const { jar } = await signIn(config)
    const { body } = await session(config, jar)
    expect(body).toMatchObject({
      user: { id: ADA.id, name: ADA.name },
      role: "editor",
      expires: expect.any(String),
    })
  })

  test("the default keeps only name, email and image of the user", async () => {
    const { config } = makeConfig({
      callbacks: { jwt: ({ token }) => ({ ...token, secretClaim: "x" }) },
    })
    const { jar } = await signIn(config)
    const { body } = await session(config, jar)
    expect(Object.keys(body!).sort()).toEqual(["expires", "user"])
    expect(Object.keys(body!.user!).sort()).toEqual(["email", "image", "name"])
  })

  test("events.session fires with the session and token", async () => {
    const events: unknown[] = []
    const { config } = makeConfig({ events: { session: (message) => void events.push(message) } })
    const { jar } = await signIn(config)
    await session(config, jar)
    expect(events).toEqual([
      {
        session: expect.objectContaining({ user: expect.any(Object) }),
        token: expect.objectContaining({ sub: ADA.id }),
      },
    ])
  })
})

describe("update (POST session)", () => {
  test("with the CSRF token: jwt gets trigger update and the data; session gets newSession; cookie re-issued", async () => {
    const seen: Record<string, unknown> = {}
    const { config } = makeConfig({
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          if (trigger === "update") {
            seen.jwt = { trigger, session }
            return { ...token, name: (session as { name: string }).name }
          }
          return token
        },
        session: ({ session, trigger, newSession }) => {
          if (trigger) seen.session = { trigger, newSession }
          return session
        },
      },
    })
    const { jar } = await signIn(config)
    const { token } = await csrfToken(config, jar)
    const response = await Auth(
      post("/auth/session", { csrfToken: token, data: { name: "Countess" } }, { jar, json: true }),
      config,
    )
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("Countess")
    expect(seen).toEqual({
      jwt: { trigger: "update", session: { name: "Countess" } },
      session: { trigger: "update", newSession: { name: "Countess" } },
    })
    jar.update(response)
    expect((await session(config, jar)).body!.user!.name).toBe("Countess")
  })

  test("without a valid CSRF token: 400 and nothing changes", async () => {
    const updates: unknown[] = []
    const { config } = makeConfig({
      callbacks: {
        jwt: ({ token, trigger }) => (trigger === "update" && updates.push(trigger), token),
      },
    })
    const { jar } = await signIn(config)
    for (const body of [
      { data: { name: "Mallory" } },
      { csrfToken: "0".repeat(64), data: { name: "Mallory" } },
    ]) {
      const response = await Auth(post("/auth/session", body, { jar, json: true }), config)
      expect(response.status).toBe(400)
      expect(setCookies(response)).toEqual([])
    }
    expect(updates).toEqual([])
    expect((await session(config, jar)).body!.user!.name).toBe(ADA.name)
  })

  test("without a session: null", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const response = await Auth(post("/auth/session", { csrfToken: token }, { jar }), config)
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
  })
})

describe("bad cookies", () => {
  test("expired, tampered, foreign or garbage: null, the cookie cleared, a debug-level refusal logged without the token", async () => {
    const expired = await encode({ token: { sub: "1" }, secret: SECRET, salt: COOKIE, maxAge: -60 })
    const valid = await encode({ token: { sub: "1" }, secret: SECRET, salt: COOKIE })
    const tampered = valid.slice(0, -3) + (valid.endsWith("AAA") ? "BBB" : "AAA")
    const foreign = await encode({ token: { sub: "1" }, secret: "x".repeat(40), salt: COOKIE })
    const otherSalt = await encode({ token: { sub: "1" }, secret: SECRET, salt: "tessera.other" })
    for (const value of [expired, tampered, foreign, otherSalt, "garbage", "a.b.c.d.e", "%%%"]) {
      const { config, log } = makeConfig({ debug: true })
      const response = await Auth(
        get("/auth/session", { headers: { cookie: `${COOKIE}=${value}` } }),
        config,
      )
      expect(response.status).toBe(200)
      expect(await response.json()).toBeNull()
      const cleared = setCookie(response, COOKIE)!
      expect(isExpired(cleared)).toBe(true)
      // A bad cookie is the client's: not a server error.
      expect(log.errors).toEqual([])
      expect(log.refusals.map((e) => (e as { type?: string }).type)).toEqual(["JWTSessionError"])
      const logged = JSON.stringify(
        log.refusals.map((e) => [e.message, String((e.cause as { err?: Error })?.err)]),
      )
      expect(logged).not.toContain(value.slice(10, 40) || "%%%x")
    }
  })
})

describe("sign-out", () => {
  test("POST signout clears the session cookie, fires signOut with the token, and redirects", async () => {
    const events: unknown[] = []
    const { config } = makeConfig({ events: { signOut: (message) => void events.push(message) } })
    const { jar } = await signIn(config)
    const { token } = await csrfToken(config, jar)
    const response = await Auth(
      post("/auth/signout", { csrfToken: token, callbackUrl: "/bye" }, { jar }),
      config,
    )
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/bye`)
    const cleared = setCookie(response, COOKIE)!
    expect(isExpired(cleared)).toBe(true)
    expect(cleared.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" })
    expect(events).toEqual([{ token: expect.objectContaining({ sub: ADA.id }) }])
    jar.update(response)
    expect((await session(config, jar)).body).toBeNull()
  })
})

describe("getSession()", () => {
  test("reads the session from a Cookie header or parsed cookies, without a Request", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    const fromHeader = await getSession(
      { url: `${ORIGIN}/dashboard`, cookies: jar.header() },
      config,
    )
    expect(fromHeader.session).toMatchObject({
      user: { email: ADA.email },
      expires: expect.any(String),
    })
    expect(fromHeader.cookies).toEqual([])
    const fromObject = await getSession(
      { url: new URL(`${ORIGIN}/`), cookies: { [COOKIE]: jar.get(COOKIE)! } },
      config,
    )
    expect(fromObject.session!.user!.name).toBe(ADA.name)
  })

  test("null without a cookie; a bad cookie comes back with the cookie that clears it", async () => {
    const { config } = makeConfig()
    expect(await getSession({ url: ORIGIN, cookies: null }, config)).toEqual({
      session: null,
      cookies: [],
    })
    const bad = await getSession({ url: ORIGIN, cookies: `${COOKIE}=garbage` }, config)
    expect(bad.session).toBeNull()
    expect(bad.cookies).toMatchObject([{ name: COOKIE, value: "", options: { maxAge: 0 } }])
  })

  test("an absent Cookie header as Node and Hono give it (undefined) is no cookie, not a crash", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    // `req.headers.cookie` (Express, node:http) and `c.req.header("cookie")` (Hono).
    const headerOf = (present: boolean): string | undefined => (present ? jar.header() : undefined)
    expect(await getSession({ url: ORIGIN, cookies: headerOf(false) }, config)).toEqual({
      session: null,
      cookies: [],
    })
    const signedIn = await getSession({ url: ORIGIN, cookies: headerOf(true) }, config)
    expect(signedIn.session!.user!.name).toBe(ADA.name)
  })

  test("a path instead of the request's URL is refused with a message saying what to pass", async () => {
    const { config } = makeConfig()
    // Express's `req.url` is the path alone.
    await expect(getSession({ url: "/dashboard", cookies: null }, config)).rejects.toThrow(
      /absolute URL, not a path: in Express pass `\$\{req\.protocol\}/,
    )
  })

  test("https URLs read the __Secure- cookie; a stale token comes back refreshed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const start = Date.now()
    const { config } = makeConfig()
    const { jar } = await signIn(config, undefined, { origin: HTTPS_ORIGIN })
    const name = "__Secure-tessera.session-token"
    expect(
      (await getSession({ url: `${HTTPS_ORIGIN}/x`, cookies: jar.header() }, config)).session!.user!
        .email,
    ).toBe(ADA.email)
    expect(
      (await getSession({ url: `${ORIGIN}/x`, cookies: jar.header() }, config)).session,
    ).toBeNull()
    vi.setSystemTime(start + 2 * DAY * 1000)
    const { cookies } = await getSession(
      { url: `${HTTPS_ORIGIN}/x`, cookies: jar.header() },
      config,
    )
    // Refreshed, but never past 30 days after the sign-in (session.absoluteMaxAge).
    expect(cookies).toMatchObject([
      { name, options: { secure: true, httpOnly: true, sameSite: "lax", maxAge: 28 * DAY } },
    ])
  })

  test("a broken configuration throws the configuration error", async () => {
    const { config } = makeConfig({ secret: "short" })
    await expect(getSession({ url: ORIGIN, cookies: null }, config)).rejects.toMatchObject({
      type: "InvalidSecret",
    })
  })
})

test("token claims given to the session callback are the decoded JWT", async () => {
  const tokens: JWT[] = []
  const { config } = makeConfig({
    callbacks: { session: ({ session, token }) => (tokens.push(token), session) },
  })
  const { jar } = await signIn(config)
  await session(config, jar)
  expect(tokens[0]).toMatchObject({
    sub: ADA.id,
    iat: expect.any(Number),
    exp: expect.any(Number),
    jti: expect.any(String),
  })
})
