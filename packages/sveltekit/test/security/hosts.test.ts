/**
 * The attack from the security review, through the SvelteKit integration:
 * with adapter-node's `ORIGIN` pinning `event.url` (or `AUTH_URL` set), a POST
 * to `/auth/signin/email` carrying `X-Forwarded-Host: <attacker>` must mail the
 * victim a link on the app's own origin, never the attacker's. Without a
 * pinned origin, proxy headers SvelteKit did not apply are ignored too.
 */
import { afterEach, describe, expect, it } from "vitest"
import { MemoryAdapter } from "@tessera/testing"
import Email from "@tessera/core/providers/email"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { SECRET, useKitRuntime } from "../helpers/config.js"
import { Browser, createEvent, formRequest, runHandle } from "../helpers/kit.js"

const APP = "https://app.example.com"
const EVIL = "app.example.com.attacker.test"

afterEach(() => setKitRuntime())

/** The hook with an e-mail provider; every mailed link lands in `mailed`. */
function app() {
  const mailed: string[] = []
  const { handle } = SvelteKitAuth({
    adapter: MemoryAdapter(),
    providers: [Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) })],
  })
  return { handle, mailed }
}

/** What the attacker sends: a link request for the victim, with a forged proxy host. */
async function requestVictimLink(handle: ReturnType<typeof app>["handle"], origin: string) {
  const browser = new Browser()
  const forged = { "x-forwarded-host": EVIL, "x-forwarded-proto": "https" }
  const csrf = await runHandle(
    handle,
    createEvent(browser.request(`${origin}/auth/csrf`, { headers: forged })),
  )
  browser.receiveResponse(csrf.response)
  const { csrfToken } = (await csrf.response.json()) as { csrfToken: string }
  const request = formRequest(
    `${origin}/auth/signin/email`,
    { email: "victim@example.org", csrfToken },
    {
      ...forged,
      cookie: browser.header(),
    },
  )
  return runHandle(handle, createEvent(request))
}

describe("mailed links through the SvelteKit hook", () => {
  it("with ORIGIN pinning event.url, the link is on ORIGIN whatever X-Forwarded-Host says", async () => {
    useKitRuntime({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", ORIGIN: APP })
    const { handle, mailed } = app()
    const { response } = await requestVictimLink(handle, APP)
    expect(response.status).toBe(302)
    expect(mailed).toHaveLength(1)
    expect(new URL(mailed[0]!).origin).toBe(APP)
  })

  it("with AUTH_URL, the link is on AUTH_URL's origin", async () => {
    useKitRuntime({ AUTH_SECRET: SECRET, AUTH_URL: `${APP}/auth` })
    const { handle, mailed } = app()
    await requestVictimLink(handle, APP)
    expect(new URL(mailed[0]!).origin).toBe(APP)
  })

  it("without a pinned origin, proxy headers SvelteKit did not apply are ignored: the link is on event.url", async () => {
    useKitRuntime({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" })
    const { handle, mailed } = app()
    await requestVictimLink(handle, "http://localhost:5173")
    expect(mailed).toHaveLength(1)
    expect(new URL(mailed[0]!).origin).toBe("http://localhost:5173")
    expect(mailed[0]).not.toContain("attacker")
  })
})
