/**
 * Cookies: names and flags on http and https, chunking of large session
 * tokens and clearing of stale chunks, custom names.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { getToken } from "@tessera/core/jwt"
import {
  HTTPS_ORIGIN,
  Jar,
  ORIGIN,
  SECRET,
  csrfToken,
  get,
  isExpired,
  makeConfig,
  post,
  setCookies,
  signIn,
  type ParsedSetCookie,
} from "../harness/index.js"

const COOKIE = "tessera.session-token"

/** A claim of `size` characters that does not compress (the JWE is not compressed anyway). */
function blob(size: number): string {
  let out = ""
  while (out.length < size) out += crypto.randomUUID()
  return out.slice(0, size)
}

/** A config whose jwt callback sets a claim of the current `size` (0: none). */
function sizedConfig(initial: number) {
  const state = { size: initial, value: blob(initial) }
  const { config, log } = makeConfig({
    callbacks: {
      jwt: ({ token }) => {
        if (state.size === 0) {
          const { blob: _drop, ...rest } = token
          return rest
        }
        return token.blob === state.value ? token : { ...token, blob: state.value }
      },
    },
  })
  const resize = (size: number) => {
    state.size = size
    state.value = blob(size)
  }
  return { config, log, resize }
}

const names = (cookies: ParsedSetCookie[]) =>
  cookies.map((c) => `${c.name}${isExpired(c) ? " (cleared)" : ""}`).sort()

describe("chunking", () => {
  test("a token over ~4 KB is split into name.0, name.1, ... each within the browser limit, and read back", async () => {
    const { config } = sizedConfig(9000)
    const { response, jar } = await signIn(config)
    const cookies = setCookies(response).filter((c) => c.name.startsWith(COOKIE))
    expect(cookies.map((c) => c.name)).toEqual([
      `${COOKIE}.0`,
      `${COOKIE}.1`,
      `${COOKIE}.2`,
      `${COOKIE}.3`,
    ])
    for (const cookie of cookies) {
      expect(cookie.raw.split(";")[0]!.length).toBeLessThanOrEqual(4096)
      expect(cookie.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" })
    }
    const check = await Auth(get("/auth/session", { jar }), config)
    expect(((await check.json()) as { user: { name: string } }).user.name).toBe("Ada Lovelace")
    expect(setCookies(check)).toEqual([])
    const token = await getToken({ req: get("/auth/session", { jar }), secret: SECRET })
    expect((token!.blob as string).length).toBe(9000)
  })

  test("a token that shrinks to one cookie clears every old chunk", async () => {
    const { config, resize } = sizedConfig(9000)
    const { jar } = await signIn(config)
    resize(0)
    const response = await Auth(get("/auth/session", { jar }), config)
    expect(names(setCookies(response))).toEqual([
      COOKIE,
      `${COOKIE}.0 (cleared)`,
      `${COOKIE}.1 (cleared)`,
      `${COOKIE}.2 (cleared)`,
      `${COOKIE}.3 (cleared)`,
    ])
    jar.update(response)
    expect([...jar.keys()].filter((k) => k.startsWith(COOKIE))).toEqual([COOKIE])
    expect(
      (await (await Auth(get("/auth/session", { jar }), config)).json()) as object,
    ).toMatchObject({ user: { name: "Ada Lovelace" } })
  })

  test("fewer chunks: the ones past the end are cleared; growing from one cookie clears the unchunked one", async () => {
    const { config, resize } = sizedConfig(9000)
    const { jar } = await signIn(config)
    resize(5000)
    const fewer = await Auth(get("/auth/session", { jar }), config)
    expect(names(setCookies(fewer))).toEqual([
      `${COOKIE}.0`,
      `${COOKIE}.1`,
      `${COOKIE}.2 (cleared)`,
      `${COOKIE}.3 (cleared)`,
    ])
    jar.update(fewer)

    resize(0)
    const single = await Auth(get("/auth/session", { jar }), config)
    jar.update(single)
    resize(5000)
    const grown = await Auth(get("/auth/session", { jar }), config)
    expect(names(setCookies(grown))).toEqual([`${COOKIE} (cleared)`, `${COOKIE}.0`, `${COOKIE}.1`])
  })

  test("sign-out clears every chunk", async () => {
    const { config } = sizedConfig(9000)
    const { jar } = await signIn(config)
    const { token } = await csrfToken(config, jar)
    const response = await Auth(post("/auth/signout", { csrfToken: token }, { jar }), config)
    expect(names(setCookies(response).filter((c) => c.name.startsWith(COOKIE)))).toEqual(
      [0, 1, 2, 3].map((i) => `${COOKIE}.${i} (cleared)`),
    )
  })

  test("a missing middle chunk makes the token unreadable: null and cleared, not a crash", async () => {
    const { config } = sizedConfig(9000)
    const { jar } = await signIn(config)
    jar.delete(`${COOKIE}.1`)
    const response = await Auth(get("/auth/session", { jar }), config)
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
  })
})

/** Every Set-Cookie a full round of flows produces. */
async function allCookies(origin: string, overrides = {}) {
  const { config } = makeConfig({ session: { updateAge: 0 }, ...overrides })
  const out: ParsedSetCookie[] = []
  const jar = new Jar()
  const collect = (r: Response) => (out.push(...setCookies(r)), jar.update(r), r)
  collect(await Auth(get("/auth/signin?callbackUrl=%2Fafter", { origin, jar }), config))
  const { token } = await csrfToken(config, jar, origin)
  collect(
    await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: token },
        { origin, jar },
      ),
      config,
    ),
  )
  collect(await Auth(get("/auth/session", { origin, jar }), config))
  collect(await Auth(post("/auth/signout", { csrfToken: token }, { origin, jar }), config))
  collect(
    await Auth(
      get("/auth/session", {
        origin,
        headers: {
          cookie: `${jar.header()}; tessera.session-token=bad; __Secure-tessera.session-token=bad`,
        },
      }),
      config,
    ),
  )
  const fresh = new Jar()
  out.push(...setCookies(await Auth(get("/auth/csrf", { origin, jar: fresh }), config)))
  return out
}

describe("names and flags", () => {
  test("every cookie is HttpOnly, SameSite=Lax, Path=/, on http and https", async () => {
    for (const origin of [ORIGIN, HTTPS_ORIGIN]) {
      const cookies = await allCookies(origin)
      expect(cookies.length).toBeGreaterThanOrEqual(6)
      for (const cookie of cookies) {
        expect({ name: cookie.name, ...cookie.attributes }).toMatchObject({
          name: cookie.name,
          httponly: true,
          samesite: "Lax",
          path: "/",
        })
        expect(cookie.attributes.domain).toBeUndefined()
      }
    }
  })

  test("http: plain names, no Secure", async () => {
    const cookies = await allCookies(ORIGIN)
    expect(new Set(cookies.filter((c) => !isExpired(c)).map((c) => c.name))).toEqual(
      new Set(["tessera.callback-url", "tessera.csrf-token", "tessera.session-token"]),
    )
    for (const cookie of cookies) expect(cookie.attributes.secure).toBeUndefined()
  })

  test("https: __Host- for the CSRF cookie, __Secure- for the others, all Secure", async () => {
    const cookies = await allCookies(HTTPS_ORIGIN)
    expect(new Set(cookies.filter((c) => !isExpired(c)).map((c) => c.name))).toEqual(
      new Set([
        "__Secure-tessera.callback-url",
        "__Host-tessera.csrf-token",
        "__Secure-tessera.session-token",
      ]),
    )
    for (const cookie of cookies) {
      expect(cookie.attributes.secure, cookie.name).toBe(true)
      expect(cookie.name).toMatch(/^__(Secure|Host)-/)
    }
  })

  test("https behind a proxy (X-Forwarded-Proto with trustHost) uses the secure names", async () => {
    const { config } = makeConfig()
    const response = await Auth(
      get("/auth/csrf", { headers: { "x-forwarded-proto": "https" } }),
      config,
    )
    expect(setCookies(response).map((c) => [c.name, c.attributes.secure])).toEqual([
      ["__Host-tessera.csrf-token", true],
    ])
  })

  test("useSecureCookies overrides the protocol", async () => {
    const on = makeConfig({ useSecureCookies: true }).config
    expect(
      setCookies(await Auth(get("/auth/csrf"), on)).map((c) => [c.name, c.attributes.secure]),
    ).toEqual([["__Host-tessera.csrf-token", true]])
    const off = makeConfig({ useSecureCookies: false }).config
    expect(
      setCookies(await Auth(get("/auth/csrf", { origin: HTTPS_ORIGIN }), off)).map((c) => [
        c.name,
        c.attributes.secure,
      ]),
    ).toEqual([["tessera.csrf-token", undefined]])
  })

  test("custom cookie names and options are used for writing and reading", async () => {
    const { config } = makeConfig({
      cookies: {
        sessionToken: { name: "my-session", options: { sameSite: "strict" } },
        csrfToken: { name: "my-csrf" },
      },
    })
    const { response, jar } = await signIn(config)
    const session = setCookies(response).find((c) => c.name === "my-session")!
    expect(session.attributes).toMatchObject({ httponly: true, samesite: "Strict", path: "/" })
    expect(jar.get("my-csrf")).toBeTruthy()
    expect(
      ((await (await Auth(get("/auth/session", { jar }), config)).json()) as { user: object }).user,
    ).toMatchObject({ name: "Ada Lovelace" })
  })
})
