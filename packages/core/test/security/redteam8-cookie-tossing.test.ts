/**
 * Cookie tossing from a sibling subdomain. The default session cookie is
 * `__Secure-tessera.session-token` (Auth.js's name form), which any host under
 * the same registrable domain can also set with `Domain=`: a page on
 * `evil.example.com` can plant its owner's own valid session into a visitor of
 * `app.example.com` (login CSRF: the victim then types their data into the
 * attacker's account). Only a `__Host-` name stops it, because browsers refuse
 * a `__Host-` cookie that names a domain. That name is opt-in (changing the
 * default would sign every existing user out and break `getToken()` callers):
 * these tests pin that the opt-in works end to end and that it is the only
 * name read, so a planted `__Secure-` cookie does nothing.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { getToken } from "@tessera/core/jwt"
import { MemoryAdapter } from "@tessera/testing"
import {
  ADA,
  HTTPS_ORIGIN,
  Jar,
  SECRET,
  csrfToken,
  get,
  makeConfig,
  post,
  setCookie,
  signIn,
} from "../harness/index.js"

const HOST_NAME = "__Host-tessera.session-token"
const SECURE_NAME = "__Secure-tessera.session-token"

function hostOnlyConfig(overrides: Partial<AuthConfig> = {}) {
  return makeConfig({ cookies: { sessionToken: { name: HOST_NAME } }, ...overrides }).config
}

async function session(config: AuthConfig, jar: Jar) {
  const response = await Auth(get("/auth/session", { jar, origin: HTTPS_ORIGIN }), config)
  return (await response.json()) as { user?: { email?: string } } | null
}

describe("a __Host- session cookie, for apps that share their domain with hosts they do not trust", () => {
  test("the default name can be planted: a sibling's `__Secure-` cookie is read (why the opt-in exists)", async () => {
    const config = makeConfig().config
    // The attacker signs in to the app as themselves and keeps their own cookie ...
    const attacker = await signIn(config, undefined, { origin: HTTPS_ORIGIN })
    const planted = attacker.jar.get(SECURE_NAME)
    expect(planted).toBeTruthy()
    // ... which their subdomain sets with Domain=example.com in the victim's browser.
    const victim = new Jar({ [SECURE_NAME]: planted! })
    expect((await session(config, victim))?.user?.email).toBe("ada@example.com")
  })

  test("sign-in sets it host-only (Path=/, Secure, no Domain), the session reads it, sign-out clears it", async () => {
    const config = hostOnlyConfig()
    const { response, jar } = await signIn(config, undefined, { origin: HTTPS_ORIGIN })
    const cookie = setCookie(response, HOST_NAME)
    expect(cookie?.value).toBeTruthy()
    expect(cookie?.attributes).toMatchObject({ path: "/", secure: true, httponly: true })
    expect(cookie?.attributes.domain).toBeUndefined()
    expect(setCookie(response, SECURE_NAME)).toBeUndefined()
    expect((await session(config, jar))?.user?.email).toBe("ada@example.com")

    const { token } = await csrfToken(config, jar, HTTPS_ORIGIN)
    const signOut = await Auth(
      post("/auth/signout", { csrfToken: token }, { jar, origin: HTTPS_ORIGIN }),
      config,
    )
    jar.update(signOut)
    expect(jar.has(HOST_NAME)).toBe(false)
    expect(await session(config, jar)).toBeNull()
  })

  test("with it, a planted `__Secure-` session cookie is ignored", async () => {
    const attackerApp = makeConfig().config
    const attacker = await signIn(attackerApp, undefined, { origin: HTTPS_ORIGIN })
    const victim = new Jar({ [SECURE_NAME]: attacker.jar.get(SECURE_NAME)! })
    expect(await session(hostOnlyConfig(), victim)).toBeNull()
  })

  test("database sessions use it too", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
    const config = hostOnlyConfig({ adapter, session: { strategy: "database" } })
    const { response, jar } = await signIn(config, undefined, { origin: HTTPS_ORIGIN })
    expect(setCookie(response, HOST_NAME)?.attributes.domain).toBeUndefined()
    expect((await session(config, jar))?.user?.email).toBe("ada@example.com")
  })

  test("getToken() reads it when told the name", async () => {
    const config = hostOnlyConfig()
    const { jar } = await signIn(config, undefined, { origin: HTTPS_ORIGIN })
    const req = get("/api/anything", { jar, origin: HTTPS_ORIGIN })
    expect(await getToken({ req, secret: SECRET })).toBeNull()
    const token = await getToken({ req, secret: SECRET, cookieName: HOST_NAME })
    expect(token?.email).toBe("ada@example.com")
  })

  test("a __Host- name with a domain is refused at start, not dropped silently by browsers", async () => {
    const config = makeConfig({
      cookies: { sessionToken: { name: HOST_NAME, options: { domain: "example.com" } } },
    }).config
    const response = await Auth(get("/auth/session", { origin: HTTPS_ORIGIN }), config)
    expect(response.status).toBe(500)
  })
})
