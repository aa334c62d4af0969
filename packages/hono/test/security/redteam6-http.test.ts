/**
 * Red team, round 6: the URL Hono hands to core. On Node.js, `@hono/node-server`
 * takes the authority of an absolute-form request target as the URL's host (as
 * HTTP says an origin server must: RFC 9112 §3.2.2), whatever `Host` says, so
 * `GET http://attacker.test/auth/signin` reaches core on attacker.test. Pinned:
 * with `allowedHosts` that host is refused before anything is built on it (a
 * mailed sign-in link pointing at the attacker, the classic poisoning).
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import { integrationConfig, MemoryAdapter, sendRaw } from "@tessera/testing"
import Email from "@tessera/core/providers/email"
import { startApp } from "../harness.js"

const ATTACKER = "attacker.test"
const mailed: string[] = []
let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp((origin) => {
    const base = integrationConfig()
    return {
      ...base,
      adapter: MemoryAdapter(),
      allowedHosts: [new URL(origin).host],
      providers: [
        ...base.providers,
        Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) }),
      ],
    }
  })
})
afterAll(() => app.stop())

/** A token from the app's own host, then the e-mail sign-in posted to `target` with `headers`. */
async function requestLink(target: string, headers: Record<string, string>) {
  const host = new URL(app.origin).host
  const csrf = await sendRaw(app.origin, { target: "/auth/csrf", headers: { host } })
  const cookie = String(csrf.headers["set-cookie"]).split(";")[0]!
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  return sendRaw(app.origin, {
    method: "POST",
    target,
    headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "victim@example.com", csrfToken }).toString(),
  })
}

test("an absolute-form target naming another host is refused, with the right Host or not", async () => {
  const host = new URL(app.origin).host
  for (const headers of [{ host }, { host: ATTACKER }]) {
    const page = await sendRaw(app.origin, { target: `http://${ATTACKER}/auth/signin`, headers })
    expect(page.status).toBe(400)
    expect(page.body).toContain("UntrustedHost")
    const mail = await requestLink(`http://${ATTACKER}/auth/signin/email`, headers)
    expect(mail.status).toBe(400)
  }
  expect(mailed).toEqual([])
  // The same request at the app's own host mails a link on that host.
  const own = await requestLink("/auth/signin/email", { host })
  expect(own.status).toBe(302)
  expect(mailed).toHaveLength(1)
  expect(new URL(mailed[0]!).host).toBe(host)
})
