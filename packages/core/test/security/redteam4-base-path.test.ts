/**
 * A base path is pasted into URLs as written (`<origin><basePath>/<action>`) and
 * matched against request paths as the URL parser writes them. A base path the
 * parser would spell differently (`//auth` from a doubled slash in AUTH_URL,
 * dot segments, a backslash, non-ASCII) made core serve one path and build
 * another: with `//auth` a failed sign-in was sent to the host `auth`
 * (`https://auth/signin?error=...`, off the site), and with `/x/../auth` the
 * built-in pages posted to `/auth/...`, which core did not serve. Such a base
 * path is a configuration error now, named in the log, on every request.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { makeConfig, ORIGIN } from "../harness/index.js"

const at = (path: string, init?: RequestInit) => new Request(`${ORIGIN}${path}`, init)

describe("base paths the URL parser spells differently", () => {
  test("url with a doubled slash: no redirect off the site, a logged configuration error", async () => {
    const { config, log } = makeConfig({ url: `${ORIGIN}//auth` })
    const csrf = await Auth(at("//auth/csrf"), config)
    const failed = await Auth(
      at("//auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: "" },
        body: new URLSearchParams({ username: "nobody", password: "x" }),
      }),
      config,
    )
    // It was `302 http://auth/signin?error=Signin`.
    const location = failed.headers.get("location")
    if (location) expect(new URL(location).origin).toBe(ORIGIN)
    expect([csrf.status, failed.status]).toEqual([500, 500])
    expect(log.errors[0]).toMatchObject({ type: "InvalidConfiguration" })
  })

  test.each(["/x/../auth", "/x/./auth", "/a\\uth", "/äuth", "/auth/.."])(
    "basePath %j: a configuration error, not pages posting where nothing answers",
    async (basePath) => {
      const { config, log } = makeConfig({ basePath })
      const page = await Auth(at(`${basePath}/signin`), config)
      if (page.status === 200) {
        const html = await page.text()
        const action = /action="([^"]+)"/.exec(html)![1]!.replaceAll("&amp;", "&")
        const served = await Auth(new Request(action, { method: "POST" }), config)
        expect(served.status, action).not.toBe(404)
      }
      expect(page.status).toBe(500)
      expect(log.errors[0]).toMatchObject({
        type: "InvalidConfiguration",
        message: expect.stringContaining("basePath"),
      })
    },
  )

  test.each(["/auth", "/api/auth/", "/Auth", "/auth%2Fx", "/%C3%A4uth", "/%zz"])(
    "basePath %j as a URL writes it: served",
    async (basePath) => {
      const { config } = makeConfig({ basePath })
      const trimmed = basePath.replace(/\/$/, "")
      expect((await Auth(at(`${trimmed}/csrf`), config)).status).toBe(200)
    },
  )
})
