/**
 * The demo's `/admin` guard against paths spelt differently from the ones it
 * compares: SvelteKit routes on the percent-decoded path (`/%61dmin/users` is
 * the `/admin/users` page) while `event.url.pathname` keeps the encoding, so a
 * guard that compares the raw path lets anyone in.
 */
import { describe, expect, test } from "vitest"
import { useDemo } from "./demo-server"

const demo = useDemo()

describe("the /admin guard and encoded paths", () => {
  test.each(["/%61dmin", "/%61dmin/users", "/admin/%75sers", "/%41dmin/users", "/%2561dmin/users"])(
    "%s, without a session, never shows an admin page",
    async (path) => {
      const response = await fetch(new URL(path, demo.server.url), { redirect: "manual" })
      const html = await response.text()
      expect(response.status, html.slice(0, 200)).not.toBe(200)
      expect(html).not.toContain("@example.test")
    },
  )

  test("nor the data request of client-side navigation", async () => {
    const response = await fetch(new URL("/%61dmin/users/__data.json", demo.server.url), {
      redirect: "manual",
    })
    const body = (await response.json()) as { type: string; location?: string }
    expect(body.type).toBe("redirect")
    expect(body.location).toMatch(/^\/signin\?/)
  })
})
