/**
 * Planting an Auth.js session cookie (login CSRF through adoption). On https,
 * Auth.js only ever set `__Secure-authjs.session-token`; the plain name can be
 * written into a browser by anyone on its network (any plain-http response for
 * the domain may set it, and nothing marks it as set over TLS). An attacker
 * who once had an account under Auth.js holds a valid token of their own: if
 * Tessera adopted the plain name on https, the victim's browser would be
 * signed in to the attacker's account. Only the name Auth.js used at the
 * app's scheme is adopted.
 */
import { readFileSync } from "node:fs"
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { HTTPS_ORIGIN, Jar, get, makeConfig, setCookies } from "../harness/index.js"

const fixtures = JSON.parse(
  readFileSync(new URL("../fixtures/authjs-session-tokens.json", import.meta.url), "utf8"),
) as Record<"secret" | "plain" | "secure", string>

async function sessionWith(cookies: Record<string, string>, origin?: string) {
  const { config } = makeConfig({ secret: fixtures.secret })
  const response = await Auth(get("/auth/session", { jar: new Jar(cookies), origin }), config)
  return { body: await response.json(), setCookies: setCookies(response) }
}

describe("an Auth.js session cookie planted under the name of the other scheme", () => {
  test("on https, the plain `authjs.session-token` is not adopted", async () => {
    const planted = await sessionWith({ "authjs.session-token": fixtures.plain }, HTTPS_ORIGIN)
    expect(planted.body).toBeNull()
    expect(planted.setCookies.filter((c) => c.name.includes("tessera."))).toEqual([])
  })

  test("the name Auth.js used at each scheme still is", async () => {
    const secure = await sessionWith(
      { "__Secure-authjs.session-token": fixtures.secure },
      HTTPS_ORIGIN,
    )
    expect(secure.body?.user?.email).toBe("ada@example.com")
    const plain = await sessionWith({ "authjs.session-token": fixtures.plain })
    expect(plain.body?.user?.email).toBe("ada@example.com")
  })
})
