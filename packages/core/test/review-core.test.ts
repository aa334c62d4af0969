/**
 * Findings of the core code review, each proven through `Auth()` with real requests.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { memoryBackend } from "./database-session-fixtures.js"
import { requestLink, uniqueAddress } from "./email-fixtures.js"
import { makeConfig, ORIGIN, sessionCookieName, setCookie, signIn } from "./helpers.js"
import { Browser, passkeyConfig } from "./webauthn-harness.js"

describe("the signIn callback fails closed", () => {
  // Auth.js denies on any falsy answer; an app that forgets a `return` must not let everyone in.
  for (const answer of [undefined, null, ""]) {
    test(`credentials: a signIn callback answering ${JSON.stringify(answer)} refuses the sign-in`, async () => {
      const { config } = makeConfig({ callbacks: { signIn: () => answer as any } })
      const { response } = await signIn(config)
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
      const session = setCookie(response, sessionCookieName())
      expect(session === undefined || session.value === "").toBe(true)
    })
  }

  test("e-mail: a signIn callback answering undefined mails no link", async () => {
    const sent: string[] = []
    const { config } = makeConfig({
      adapter: memoryBackend().adapter,
      callbacks: { signIn: () => undefined as any },
      providers: [
        Email({ sendVerificationRequest: ({ identifier }) => void sent.push(identifier) }),
      ],
    })
    const { response } = await requestLink(config, uniqueAddress(), { providerId: "email" })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(sent).toEqual([])
  })
})

describe("e-mail sign-in: a URL from the signIn callback goes through `redirect`", () => {
  test("an off-site URL lands on the origin, as in every other flow", async () => {
    const { config } = makeConfig({
      adapter: memoryBackend().adapter,
      callbacks: { signIn: () => "https://evil.example/phish" },
      providers: [Email({ sendVerificationRequest: () => {} })],
    })
    const { response } = await requestLink(config, uniqueAddress(), { providerId: "email" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(ORIGIN)
  })
})

describe("passkey callback: client data that is JSON but not an object", () => {
  for (const clientData of ["null", "1", '"x"', "[]"]) {
    test(`clientDataJSON ${clientData} is a refused passkey (error=Callback), not a server error`, async () => {
      const { config, errors } = passkeyConfig()
      const browser = new Browser(config)
      await browser.registerNew("ada@example.com")
      await browser.signOut()
      const { body } = await browser.options({ action: "authenticate" })
      const good = browser.authenticator.authenticate(body.options, {
        origin: browser.origin,
      }) as any
      const bad = {
        ...good,
        response: {
          ...good.response,
          clientDataJSON: Buffer.from(clientData).toString("base64url"),
        },
      }
      const response = await browser.callback("authenticate", bad)
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`${browser.origin}/auth/signin?error=Callback`)
      expect(errors.map((e) => e.type)).not.toContain(undefined)
    })
  }
})

describe("random requests against every provider type", () => {
  test("e-mail, passkey and OAuth routes never answer 5xx to client input", async () => {
    const fc = (await import("fast-check")).default
    const { skipCSRFCheck } = await import("@tessera/core")
    const Passkey = (await import("@tessera/core/providers/passkey")).default
    const { MemoryAdapter } = await import("@tessera/testing")
    const adapter = MemoryAdapter()
    const make = (skip: boolean) =>
      makeConfig({
        adapter,
        ...(skip ? { skipCSRFCheck } : {}),
        providers: [
          Email({ sendVerificationRequest: () => {} }),
          Passkey(),
          {
            id: "plain",
            name: "Plain",
            type: "oauth",
            clientId: "client",
            clientSecret: "secret",
            authorization: { url: "https://idp.example/authorize" },
            token: { url: "https://idp.example/token" },
            userinfo: { url: "https://idp.example/userinfo" },
          } as any,
        ],
      }).config
    const configs = [make(true), make(false)]
    const text = fc.string({ maxLength: 40 })
    const field = fc.oneof(
      text,
      fc.jsonValue({ maxDepth: 2 }),
      fc.constant(null),
      fc.constant("null"),
      fc.constant("[]"),
    )
    const body = fc.dictionary(
      fc.constantFrom(
        "csrfToken",
        "email",
        "token",
        "action",
        "data",
        "callbackUrl",
        "code",
        "state",
        "iss",
        "error",
      ),
      field,
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("signin", "callback", "webauthn-options"),
        fc.constantFrom("email", "passkey", "plain"),
        fc.constantFrom("GET", "POST"),
        fc.dictionary(
          fc.constantFrom(
            "email",
            "token",
            "action",
            "name",
            "code",
            "state",
            "error",
            "iss",
            "callbackUrl",
          ),
          text,
        ),
        body,
        fc.boolean(),
        fc.integer({ min: 0, max: 1 }),
        async (action, provider, method, query, fields, json, which) => {
          const url = new URL(`/auth/${action}/${provider}`, ORIGIN)
          for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
          const headers = new Headers({
            "content-type": json ? "application/json" : "application/x-www-form-urlencoded",
          })
          const payload = json
            ? JSON.stringify(fields)
            : new URLSearchParams(
                Object.entries(fields).map(([k, v]) => [
                  k,
                  typeof v === "string" ? v : JSON.stringify(v),
                ]),
              ).toString()
          const response = await Auth(
            new Request(url, { method, headers, body: method === "POST" ? payload : undefined }),
            configs[which]!,
          )
          expect(response.status, `${method} ${url} ${payload}`).toBeLessThan(500)
          const location = response.headers.get("location")
          if (location)
            expect(location, `${method} ${url} ${payload}`).not.toContain("error=Configuration")
        },
      ),
      { numRuns: 600 },
    )
  }, 60_000)
})
