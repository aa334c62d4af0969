/**
 * `npm run dev` from the repository root: Vite's dev server with everything
 * `npm start` supplies (secret, database, local OpenID provider), so pages
 * render instead of answering 500, and signing in works, over real HTTP.
 */
import { rmSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { HttpBrowser, completeOidcLogin } from "@tessera/testing"
import { makeDataDir, startDemo, type DemoServer } from "./demo-server"

const dataDir = makeDataDir()
let demo: DemoServer

beforeAll(async () => {
  demo = await startDemo({ dataDir, mode: "dev" })
}, 180_000)

afterAll(async () => {
  await demo?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** The demo's forms as a browser posts them: SvelteKit refuses cross-site form posts. */
function postForm(browser: HttpBrowser, path: string, form: Record<string, string>) {
  return browser.request(path, { form, headers: { origin: demo.url, accept: "text/html" } })
}

describe("npm run dev", () => {
  test("serves the demo's pages from Vite, with live reload and the development defaults", async () => {
    expect(demo.output()).toContain("development server, live reload")
    const browser = new HttpBrowser(demo.url)
    const response = await browser.request("/")
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain("Development defaults.")
    expect(html).toContain("You are not signed in")
    // Modules straight from the sources, and Vite's client, which reloads the page on a change.
    expect(html).toMatch(/import\("\/@fs\/[^"]+\/\.svelte-kit\/generated\/client\/app\.js"\)/)
    const client = await browser.request("/@vite/client")
    expect(client.status).toBe(200)
    expect(await client.text()).toContain("full-reload")
  })

  test("a demo account signs in through the sign-in page's form", async () => {
    const browser = new HttpBrowser(demo.url)
    const signIn = await postForm(browser, "/signin", {
      providerId: "credentials",
      email: "alice@example.test",
      password: "wonderland-42",
      redirectTo: "/account",
    })
    expect(signIn.status).toBe(303)
    expect(signIn.headers.get("location")).toMatch(/\/account$/)
    const account = await browser.request("/account")
    expect(account.status).toBe(200)
    expect(await account.text()).toContain("alice@example.test")
  })

  test("the local OpenID provider it started signs a new user in", async () => {
    const browser = new HttpBrowser(demo.url)
    const start = await postForm(browser, "/signin", { providerId: "local-idp", redirectTo: "/" })
    expect(start.status).toBe(303)
    const callback = await completeOidcLogin(start.headers.get("location")!, { accountId: "dora" })
    const done = await browser.request(callback.url)
    expect(done.status).toBe(302)
    expect((await browser.session())?.user?.email).toBe("dora@example.test")
  })
})
