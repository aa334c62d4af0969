/**
 * The RFC 7239 `Forwarded` header is not read, on purpose (as Auth.js does not read it): the
 * proxies Tessera's guides ask for set `X-Forwarded-*` and leave a `Forwarded` the client sent
 * as it came (nginx, ALB, Heroku's router...). Trusting it would hand the origin of mailed
 * sign-in links to the client in every `trustHost` deployment whose proxy sets only `Host`.
 * Here a client's `Forwarded` changes nothing, with `trustHost` off or on, and even with no
 * `allowedHosts` to bound it: the mailed link and the redirects stay on the host the proxy set.
 */
import { expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { MemoryAdapter } from "@tessera/testing"
import { Jar, SECRET } from "../harness/index.js"

const APP = "https://app.example.com"
const FORGED = {
  "a host and a scheme": "host=attacker.test;proto=http",
  "quoted, with a port": 'for=192.0.2.1;host="attacker.test:8443";proto=https',
  "two elements": "host=attacker.test, host=app.example.com",
  malformed: 'host="unterminated;proto=gopher',
}

test.each([
  ["trustHost, no allowedHosts", { trustHost: true }],
  ["trustHost, allowedHosts", { trustHost: true, allowedHosts: ["app.example.com"] }],
  ["canonical url, no trustHost", { url: `${APP}/auth`, trustHost: false }],
] as [string, Partial<AuthConfig>][])(
  "%s: a client's Forwarded header moves no link and no redirect",
  async (_, extra) => {
    const mailed: string[] = []
    const config: AuthConfig = {
      secret: SECRET,
      adapter: MemoryAdapter(),
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
      providers: [Email({ sendVerificationRequest: ({ url }) => void mailed.push(url) })],
      // One address signs in four times here: the e-mail limit is not what is tested.
      rateLimit: false,
      ...extra,
    }
    for (const forwarded of Object.values(FORGED)) {
      const jar = new Jar()
      const csrf = await Auth(new Request(`${APP}/auth/csrf`, { headers: { forwarded } }), config)
      expect(csrf.status).toBe(200)
      jar.update(csrf)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      const signIn = await Auth(
        new Request(`${APP}/auth/signin/email`, {
          method: "POST",
          headers: { forwarded, cookie: jar.header(), origin: APP },
          body: new URLSearchParams({ csrfToken, email: "victim@example.org", callbackUrl: "/" }),
        }),
        config,
      )
      expect(new URL(signIn.headers.get("location")!).origin, forwarded).toBe(APP)
      expect(new URL(mailed.pop()!).origin, forwarded).toBe(APP)
    }
  },
)
