/**
 * Query values and profile data an attacker controls, on the demo's pages: a
 * page must answer (an error value it does not know gets the general message),
 * never a 500. `/signin?error=constructor` looked the value up in a plain
 * object, found `Object` itself, and SvelteKit could not serialise a function.
 */
import { describe, expect, test } from "vitest"
import { HttpBrowser, completeOidcLogin } from "@tessera/testing"
import { useDemo } from "./demo-server"

const demo = useDemo()

describe("the sign-in page's error values", () => {
  test.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"])(
    "/signin?error=%s: the general message, not a 500",
    async (error) => {
      for (const path of [`/signin?error=${error}`, `/signin/__data.json?error=${error}`]) {
        const response = await fetch(new URL(path, demo.server.url), { redirect: "manual" })
        const body = await response.text()
        expect(response.status, `${path}: ${body.slice(0, 200)}`).toBe(200)
      }
      const page = await (await fetch(new URL(`/signin?error=${error}`, demo.server.url))).text()
      expect(page).toContain("Signing in did not work. Please try again.")
    },
  )
})

describe("the demo's form actions, signed out", () => {
  test.each([
    ["/account?/endSession", { id: "someone-elses-session" }],
    ["/account?/endOtherSessions", {}],
    ["/signin/two-factor", { providerId: "two-factor", code: "123456" }],
    ["/signin/two-factor", { providerId: "two-factor" }],
    ["/signin", { providerId: "no-such-provider" }],
    ["/signin", { providerId: "credentials", email: "a\u202e@example.test", password: "x" }],
    ["/signout", {}],
  ])("POST %s %j: an answer, never a 500", async (path, fields) => {
    const url = demo.server.url
    const response = await fetch(new URL(path, url), {
      method: "POST",
      redirect: "manual",
      headers: { origin: url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields as Record<string, string>),
    })
    const body = await response.text()
    expect(response.status, body.slice(0, 300)).toBeLessThan(500)
  })

  test("from another origin: refused before any action runs", async () => {
    const response = await fetch(new URL("/account?/endOtherSessions", demo.server.url), {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: "https://attacker.test",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "",
    })
    expect(response.status).toBe(403)
  })
})

describe("a Local IdP profile under any name", () => {
  test.each([
    ["html", "<b>bold</b><script>alert(1)</script>"],
    ["rtl", "eve\u202ecod.exe"],
    ["long", "x".repeat(4000)],
  ])("%s: signed in, every page answers and shows it as text", async (_what, login) => {
    const browser = new HttpBrowser(demo.server.url)
    const start = await browser.request("/signin", {
      form: { providerId: "local-idp", redirectTo: "/account" },
      headers: { origin: demo.server.url, accept: "text/html" },
    })
    expect(start.status).toBe(303)
    const callback = await completeOidcLogin(start.headers.get("location")!, { accountId: login })
    const landed = await browser.request(callback.url)
    expect(landed.status, await landed.clone().text()).toBeLessThan(500)
    const session = (await browser.session()) as { user?: { name?: string } } | null
    expect(session?.user?.name, landed.headers.get("location") ?? "").toBeTruthy()
    for (const path of ["/", "/account", "/admin/users", "/auth/signout", "/signin/two-factor"]) {
      const response = await browser.request(path)
      const html = await response.text()
      expect(response.status, `${path}: ${html.slice(0, 300)}`).toBeLessThan(500)
      expect(html).not.toContain("<b>bold</b>")
      expect(html).not.toContain("<script>alert(1)")
    }
  })

  // An account key with control characters is no account key (red team 16): refused, not a 500.
  test("controls: the sign-in is refused with an error page, no session", async () => {
    const browser = new HttpBrowser(demo.server.url)
    const start = await browser.request("/signin", {
      form: { providerId: "local-idp", redirectTo: "/account" },
      headers: { origin: demo.server.url, accept: "text/html" },
    })
    expect(start.status).toBe(303)
    const callback = await completeOidcLogin(start.headers.get("location")!, {
      accountId: "ctl\u0001\u0007\u001b[31mred",
    })
    const landed = await browser.request(callback.url)
    expect(landed.status).toBe(302)
    expect(landed.headers.get("location")).toMatch(/\/auth\/error\?error=Configuration$/)
    expect(await browser.session()).toBeNull()
  })
})
