/**
 * `@hono/auth-js` exports `reqWithEnvUrl(req, authUrl)`, which apps use in handlers of their own
 * that call `Auth()`: the request's URL moved to `AUTH_URL`'s protocol, host and port, with its
 * path and query kept. An app importing it from `@tessera/hono` must find it.
 */
import { expect, test } from "vitest"
import { reqWithEnvUrl } from "@tessera/hono"

test("reqWithEnvUrl moves the request to AUTH_URL's origin, keeping path, query, method and body", async () => {
  const original = new Request("http://internal:8080/api/auth/callback/credentials?x=1", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: "a=b" },
    body: "csrfToken=t",
  })
  const moved = reqWithEnvUrl(original, "https://app.example.com/api/auth")
  expect(moved.url).toBe("https://app.example.com/api/auth/callback/credentials?x=1")
  expect(moved.method).toBe("POST")
  expect(moved.headers.get("cookie")).toBe("a=b")
  expect(await moved.text()).toBe("csrfToken=t")

  const same = new Request("http://localhost:3000/api/auth/session")
  expect(reqWithEnvUrl(same)).toBe(same)
  expect(reqWithEnvUrl(same, "http://localhost:4000").url).toBe(
    "http://localhost:4000/api/auth/session",
  )
})
