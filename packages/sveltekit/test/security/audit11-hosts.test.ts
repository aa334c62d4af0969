/**
 * Audit 11 (issue 9, hosts) through the SvelteKit integration: the `signIn`
 * form action (not only the hook's routes) with a forged proxy host, the
 * `Forwarded` header, and a request that reached the server under an internal
 * name while AUTH_URL names the public origin.
 */
import { afterEach, describe, expect, it } from "vitest"
import { MemoryAdapter } from "@tessera/testing"
import Email from "@tessera/core/providers/email"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { SECRET, useKitRuntime } from "../helpers/config.js"
import { actionOutcome, Browser, createEvent, formRequest, runHandle } from "../helpers/kit.js"

const APP = "https://app.example.com"
const EVIL = "app.example.com.attacker.test"

afterEach(() => setKitRuntime())

function app() {
  const mailed: string[] = []
  const auth = SvelteKitAuth({
    adapter: MemoryAdapter(),
    providers: [Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) })],
  })
  return { ...auth, mailed }
}

const forgedHeaders = {
  "x-forwarded-host": EVIL,
  "x-forwarded-proto": "https",
  forwarded: `host=${EVIL};proto=https`,
}

describe("the signIn form action with forged proxy headers", () => {
  it("with ORIGIN pinning event.url, the mailed link is on ORIGIN", async () => {
    useKitRuntime({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true", ORIGIN: APP })
    const { signIn, mailed } = app()
    const event = createEvent(
      formRequest(
        `${APP}/signin`,
        { providerId: "email", email: "victim@example.org" },
        forgedHeaders,
      ),
    )
    expect(await actionOutcome(signIn, event)).toEqual({ redirect: 303 })
    expect(mailed).toHaveLength(1)
    expect(new URL(mailed[0]!).origin).toBe(APP)
  })

  it("without ORIGIN, allowedHosts refuses a Host outside it: no link is mailed", async () => {
    useKitRuntime({
      AUTH_SECRET: SECRET,
      AUTH_TRUST_HOST: "true",
      AUTH_ALLOWED_HOSTS: "app.example.com",
    })
    const { signIn, mailed } = app()
    const event = createEvent(
      formRequest(`https://${EVIL}/signin`, { providerId: "email", email: "victim@example.org" }),
    )
    expect(await actionOutcome(signIn, event)).toEqual({ error: 400 })
    expect(mailed).toEqual([])
  })
})

describe("the hook's routes", () => {
  it("AUTH_URL wins over the internal host the request reached, and over Forwarded", async () => {
    useKitRuntime({ AUTH_SECRET: SECRET, AUTH_URL: `${APP}/auth` })
    const { handle, mailed } = app()
    const browser = new Browser()
    const internal = "http://internal:3000"
    const csrf = await runHandle(
      handle,
      createEvent(browser.request(`${internal}/auth/csrf`, { headers: forgedHeaders })),
    )
    browser.receiveResponse(csrf.response)
    const { csrfToken } = (await csrf.response.json()) as { csrfToken: string }
    const { response } = await runHandle(
      handle,
      createEvent(
        formRequest(
          `${internal}/auth/signin/email`,
          { email: "victim@example.org", csrfToken },
          { ...forgedHeaders, origin: APP, cookie: browser.header() },
        ),
      ),
    )
    expect(response.status).toBe(302)
    expect(new URL(mailed[0]!).origin).toBe(APP)
  })

  it("AUTH_URL with AUTH_TRUST_HOST=false: a request for another host is a 400 UntrustedHost, not a 500", async () => {
    useKitRuntime({ AUTH_SECRET: SECRET, AUTH_URL: `${APP}/auth`, AUTH_TRUST_HOST: "false" })
    const { handle } = app()
    const other = await runHandle(handle, createEvent(new Request(`https://${EVIL}/auth/csrf`)))
    expect(other.response.status).toBe(400)
    expect(await other.response.json()).toMatchObject({ error: "UntrustedHost" })
    const own = await runHandle(handle, createEvent(new Request(`${APP}/auth/csrf`)))
    expect(own.response.status).toBe(200)
  })
})
