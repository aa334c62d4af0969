/**
 * `locals.auth()` respects session revocation: a session ended from another
 * device (or by the server) is gone for the app's pages too, for database
 * sessions at once and for JWT sessions within `session.revalidateAge`;
 * `/auth/sessions` is answered by the hook like every other action.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { revokeUserSessions } from "@tessera/core/sessions"
import { SvelteKitAuth } from "../src/index.js"
import { setKitRuntime } from "../src/env.js"
import { ORIGIN, testConfig, useKitRuntime, adapterWithAda } from "./helpers/config.js"
import { createEvent, runHandle, signInThroughHandle, type Browser } from "./helpers/kit.js"

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => {
  setKitRuntime()
  vi.useRealTimers()
})

async function pageSession(handle: ReturnType<typeof SvelteKitAuth>["handle"], browser: Browser) {
  const event = createEvent(browser.request(`${ORIGIN}/dashboard`))
  await runHandle(handle, event)
  return event.locals.auth()
}

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  it("locals.auth() is null once the session was revoked", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const adapter = adapterWithAda()
    const config = testConfig({ adapter, session: { strategy } })
    const { handle } = SvelteKitAuth(config)
    const laptop = await signInThroughHandle(handle, ORIGIN)
    const phone = await signInThroughHandle(handle, ORIGIN)
    expect((await pageSession(handle, phone))?.user?.name).toBe("Ada")

    // The hook answers the sessions route.
    const listed = await runHandle(handle, createEvent(laptop.request(`${ORIGIN}/auth/sessions`)))
    expect(listed.resolved).toBe(false)
    expect(((await listed.response.json()) as unknown[]).length).toBe(2)

    expect(await revokeUserSessions(config, "1")).toBe(2)
    if (strategy === "jwt") vi.setSystemTime(Date.now() + 60_000)
    expect(await pageSession(handle, phone)).toBeNull()
    expect(await pageSession(handle, laptop)).toBeNull()
  })
})
