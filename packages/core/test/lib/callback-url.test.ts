/**
 * An app's own `redirect` callback, written for Auth.js, sees only what Auth.js
 * would let through: a path or an http(s) URL. Auth.js's documented callback
 * (`new URL(url).origin === baseUrl`) throws on anything else; a client sending
 * such a `callbackUrl` must not turn that into a server error.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { Jar, ORIGIN, csrfToken, get, makeConfig, post } from "../harness/index.js"

/** The redirect callback of Auth.js's documentation, recording what it is given. */
function authjsRedirect() {
  const seen: string[] = []
  const redirect = ({ url, baseUrl }: { url: string; baseUrl: string }) => {
    seen.push(url)
    if (url.startsWith("/")) return `${baseUrl}${url}`
    else if (new URL(url).origin === baseUrl) return url
    return baseUrl
  }
  return { redirect, seen }
}

describe("callbackUrl with an app's own redirect callback", () => {
  test.each(["a", "non-relative", "javascript:alert(1)", "\\\\evil.example", "mailto:a@b.c"])(
    "%j is ignored: the sign-in page and sign-out answer as without it, nothing logged",
    async (value) => {
      const { redirect, seen } = authjsRedirect()
      const { config, log } = makeConfig({ callbacks: { redirect } })
      const page = await Auth(
        get(`/auth/signin?${new URLSearchParams({ callbackUrl: value })}`),
        config,
      )
      expect(page.status).toBe(200)

      const jar = new Jar()
      const { token } = await csrfToken(config, jar)
      const signOut = await Auth(
        post("/auth/signout", { csrfToken: token, callbackUrl: value }, { jar }),
        config,
      )
      expect(signOut.status).toBe(302)
      expect(signOut.headers.get("location")).toBe(ORIGIN)

      expect(seen).toEqual([])
      expect(log.errors).toEqual([])
    },
  )

  test("a path or an http(s) URL still reaches the callback, as in Auth.js", async () => {
    const { redirect, seen } = authjsRedirect()
    const { config } = makeConfig({ callbacks: { redirect } })
    const jar = new Jar()
    const { token } = await csrfToken(config, jar)
    for (const callbackUrl of ["/dashboard", `${ORIGIN}/account`, "https://elsewhere.example/"]) {
      await Auth(post("/auth/signout", { csrfToken: token, callbackUrl }, { jar }), config)
    }
    expect(seen).toEqual(["/dashboard", `${ORIGIN}/account`, "https://elsewhere.example/"])
  })
})
