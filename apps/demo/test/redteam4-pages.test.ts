/**
 * Query values and profile data an attacker controls, on the demo's pages: a
 * page must answer (an error value it does not know gets the general message),
 * never a 500. `/signin?error=constructor` looked the value up in a plain
 * object, found `Object` itself, and SvelteKit could not serialise a function.
 */
import { describe, expect, test } from "vitest"
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
