import { describe, expect, it } from "vitest"
import { decode } from "@tessera/core/jwt"
import Credentials from "@tessera/core/providers/credentials"
import Passkey from "@tessera/core/providers/passkey"
import { PasskeyBrowser, passkeyConfig } from "./passkey-browser.js"
import { SECRET } from "../../harness/index.js"

const challengeCookie = (response: Response) =>
  response.headers.getSetCookie().find((c) => c.startsWith("tessera.challenge="))

describe("GET webauthn-options", () => {
  it("with nothing to go on, answers authentication options for discoverable passkeys", async () => {
    const { config, store } = passkeyConfig()
    const browser = new PasskeyBrowser(config)
    const { status, body, response } = await browser.options()
    expect(status).toBe(200)
    expect(body.action).toBe("authenticate")
    expect(body.options).toMatchObject({ rpId: "localhost", userVerification: "required" })
    expect(body.options.allowCredentials).toBeUndefined()
    expect(body.options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/) // 32 bytes
    expect(response.headers.get("cache-control")).toContain("no-store")

    // The cookie: HttpOnly, SameSite=Lax, 5 minutes, encrypted (the challenge is not readable in it).
    const cookie = challengeCookie(response)!
    expect(cookie).toMatch(/; Max-Age=300/)
    expect(cookie).toMatch(/; HttpOnly/)
    expect(cookie).toMatch(/; SameSite=Lax/)
    expect(cookie).toMatch(/; Path=\//)
    expect(cookie).not.toMatch(/Secure/)
    const value = browser.jar.get("tessera.challenge")!
    expect(value).not.toContain(body.options.challenge)
    const claims = await decode({ token: value, secret: SECRET, salt: "tessera.challenge" })
    expect(claims).toMatchObject({
      challenge: body.options.challenge,
      action: "authenticate",
      provider: "passkey",
    })
    await expect(
      decode({ token: value, secret: SECRET, salt: "tessera.session-token" }),
    ).rejects.toThrow()

    // An anonymous request writes nothing: the challenge lives in the cookie only.
    expect(store.verificationTokens.size).toBe(0)
    expect(store.users.size).toBe(0)
  })

  it("registers an e-mail address no user has, with a new user handle and passkey requirements", async () => {
    const { config } = passkeyConfig()
    const browser = new PasskeyBrowser(config)
    const { status, body } = await browser.options({
      email: " New@Example.com ",
      name: "New Person",
    })
    expect(status).toBe(200)
    expect(body.action).toBe("register")
    const { options } = body
    // The name keeps the port, as in Auth.js: two apps on one machine are told apart.
    expect(options.rp).toEqual({ id: "localhost", name: "localhost:3000" })
    expect(options.user.name).toBe("new@example.com")
    expect(options.user.displayName).toBe("New Person")
    const userId = Buffer.from(options.user.id, "base64url").toString("utf8")
    expect(userId).toMatch(/^[0-9a-f-]{36}$/)
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "required",
    })
    expect(options.attestation).toBe("none")
    expect(options.excludeCredentials).toEqual([])
    const claims = await decode({
      token: browser.jar.get("tessera.challenge")!,
      secret: SECRET,
      salt: "tessera.challenge",
    })
    expect(claims).toMatchObject({
      action: "register",
      userId,
      email: "new@example.com",
      name: "New Person",
    })
  })

  it("answers the same for an address an account uses and one nobody uses, and reveals no credential", async () => {
    const { config, adapter } = passkeyConfig()
    await adapter.createUser!({ id: "u1", email: "known@example.com", emailVerified: new Date() })
    await adapter.createAuthenticator!({
      userId: "u1",
      credentialID: "Y3JlZA",
      providerAccountId: "Y3JlZA",
      credentialPublicKey: "AA",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "internal",
    })
    const known = await new PasskeyBrowser(config).options({ email: "known@example.com" })
    const unknown = await new PasskeyBrowser(config).options({ email: "unknown@example.com" })
    expect(known.status).toBe(unknown.status)
    expect(known.body.action).toBe(unknown.body.action)
    // Same keys and value types all the way down: only the values differ (a new user handle).
    const shape = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(shape)
        : value && typeof value === "object"
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((k) => [k, shape((value as Record<string, unknown>)[k])]),
            )
          : typeof value
    expect(shape(known.body.options)).toEqual(shape(unknown.body.options))
    expect(JSON.stringify(known.body)).not.toContain("Y3JlZA")
  })

  it("refuses bad input with 400 and changes nothing", async () => {
    const { config, store } = passkeyConfig()
    const browser = new PasskeyBrowser(config)
    const queries: Record<string, string>[] = [
      { action: "delete" },
      { action: "register" },
      { email: "not-an-address" },
      { action: "register", email: "a b@example.com" },
    ]
    for (const query of queries) {
      const { status, body, response } = await browser.options(query)
      expect(status, JSON.stringify(query)).toBe(400)
      expect(body.error).toBe("InvalidRequest")
      expect(challengeCookie(response)).toBeUndefined()
    }
    expect(store.verificationTokens.size).toBe(0)
    expect(store.users.size).toBe(0)
  })

  it("a new passkey account for an address an account uses is refused when it arrives, not when it is asked for", async () => {
    const { config, adapter, store, errors } = passkeyConfig()
    await adapter.createUser!({ id: "u1", email: "taken@example.com", emailVerified: null })
    const browser = new PasskeyBrowser(config)
    const { status, body } = await browser.options({
      action: "register",
      email: "taken@example.com",
    })
    expect(status).toBe(200)
    const response = await browser.callback(
      "register",
      browser.authenticator.register(body.options, { origin: browser.origin }),
    )
    // Auth.js's value for "this address has an account: sign in the way you did before,
    // then link", with a code that lets the page speak of passkeys.
    expect(response.headers.get("location")).toBe(
      "http://localhost:3000/auth/signin?error=OAuthAccountNotLinked&code=passkey",
    )
    expect(store.users.size).toBe(1)
    expect(store.authenticators.size).toBe(0)
    expect(errors.at(-1)?.message).toMatch(/sign in to it/)
    const page = await (await browser.fetch(response.headers.get("location")!)).text()
    expect(page).toContain(
      "An account already uses this email address. Sign in to it first (with its passkey or an email link), then add a new passkey from your account.",
    )
  })

  it("getUserInfo: () => null lets only signed-in users register", async () => {
    const { config, store } = passkeyConfig({ providers: [Passkey({ getUserInfo: () => null })] })
    const browser = new PasskeyBrowser(config)
    expect((await browser.options({ email: "new@example.com" })).body.action).toBe("authenticate")
    const { status } = await browser.options({ action: "register", email: "new@example.com" })
    expect(status).toBe(400)
    expect(store.users.size).toBe(0)
  })

  it("registers for the signed-in user, excluding only that user's passkeys", async () => {
    const { config, store } = passkeyConfig()
    const first = new PasskeyBrowser(config)
    expect((await first.registerNew("first@example.com")).status).toBe(302)
    const second = new PasskeyBrowser(config)
    expect((await second.registerNew("second@example.com")).status).toBe(302)
    const [firstCredential] = first.authenticator.credentials.keys()
    const [secondCredential] = second.authenticator.credentials.keys()
    const secondUser = [...store.users.values()].find((u) => u.email === "second@example.com")!

    const { body } = await second.options()
    expect(body.action).toBe("register")
    expect(Buffer.from(body.options.user.id, "base64url").toString()).toBe(secondUser.id)
    expect(body.options.user.name).toBe("second@example.com")
    expect(body.options.excludeCredentials).toEqual([
      { id: secondCredential, type: "public-key", transports: ["internal"] },
    ])
    expect(JSON.stringify(body)).not.toContain(firstCredential)
    // Signed in, ?action=authenticate still means authenticate.
    expect((await second.options({ action: "authenticate" })).body.action).toBe("authenticate")
  })

  it("uses the configured relying party", async () => {
    const { config } = passkeyConfig({
      providers: [
        Passkey({
          relayingParty: {
            id: "example.com",
            name: "Example",
            origin: ["https://example.com", "https://app.example.com/"],
          },
        }),
      ],
    })
    const browser = new PasskeyBrowser(config, "https://app.example.com")
    const { body, response } = await browser.options({ email: "x@example.com" })
    expect(body.options.rp).toEqual({ id: "example.com", name: "Example" })
    // On https the cookie is __Secure- and Secure.
    const cookie = response.headers
      .getSetCookie()
      .find((c) => c.startsWith("__Host-tessera.challenge="))!
    expect(cookie).toMatch(/; Secure/)
  })

  it("asks getRelayingParty on each request, with the provider, the auth URL and the request", async () => {
    const seen: { url: string; provider: string; host: string }[] = []
    const tenants: Record<string, string> = { "a.example.com": "Tenant A", "b.example.org": "B" }
    const { config, store, errors } = passkeyConfig({
      allowedHosts: Object.keys(tenants),
      providers: [
        Passkey({
          getRelayingParty: (options, request) => {
            seen.push({
              url: options.url.href,
              provider: options.provider.id,
              host: request.url.hostname,
            })
            const host = request.url.hostname
            return { id: host, name: tenants[host]!, origin: request.url.origin }
          },
        }),
      ],
    })
    for (const [host, name] of Object.entries(tenants)) {
      const browser = new PasskeyBrowser(config, `https://${host}`)
      const { body } = await browser.options({ email: `x@${host}` })
      expect(body.options.rp).toEqual({ id: host, name })
      // The callback checks the response against the same relying party.
      const response = await browser.callback(
        "register",
        browser.authenticator.register(body.options, { origin: browser.origin }),
      )
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(`https://${host}`)
    }
    expect(seen.slice(0, 2)).toEqual([
      { url: "https://a.example.com/auth", provider: "passkey", host: "a.example.com" },
      { url: "https://a.example.com/auth", provider: "passkey", host: "a.example.com" },
    ])
    expect(store.authenticators.size).toBe(2)
    expect(errors).toEqual([])
  })

  it("an invalid getRelayingParty answer is a server fault: 500, logged, nothing written", async () => {
    const { config, store, errors } = passkeyConfig({
      providers: [
        Passkey({
          getRelayingParty: () => ({ id: "https://example.com", name: "x", origin: "nope" }),
        }),
      ],
    })
    const { status } = await new PasskeyBrowser(config).options({ email: "x@example.com" })
    expect(status).toBe(500)
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/relayingParty\.(id|origin) must be/),
    ])
    expect(store.users.size).toBe(0)
  })

  it("honours challengeMaxAge and provider option overrides", async () => {
    const { config } = passkeyConfig({
      providers: [
        Passkey({
          challengeMaxAge: 60,
          authenticationOptions: { userVerification: "preferred", rpID: "evil.example" },
        }),
      ],
    })
    const { body, response } = await new PasskeyBrowser(config).options()
    expect(challengeCookie(response)).toMatch(/; Max-Age=60/)
    expect(body.options.timeout).toBe(60_000)
    expect(body.options.userVerification).toBe("preferred")
    expect(body.options.rpId).toBe("localhost") // controlled keys cannot be overridden
  })

  it("asking again replaces the browser's challenge, and still writes nothing", async () => {
    const { config, store } = passkeyConfig()
    const browser = new PasskeyBrowser(config)
    const first = (await browser.options()).body.options.challenge
    const firstCookie = browser.jar.get("tessera.challenge")
    const second = (await browser.options()).body.options.challenge
    expect(second).not.toBe(first)
    expect(browser.jar.get("tessera.challenge")).not.toBe(firstCookie)
    expect(store.verificationTokens.size).toBe(0)
  })

  it("answers 404 for a provider that is not WebAuthn or does not exist, 405 for POST", async () => {
    const { config } = passkeyConfig({
      providers: [Passkey(), Credentials({ credentials: {}, authorize: () => null })],
    })
    const browser = new PasskeyBrowser(config)
    expect((await browser.fetch("/auth/webauthn-options/nope")).status).toBe(404)
    expect((await browser.fetch("/auth/webauthn-options/credentials")).status).toBe(404)
    expect((await browser.fetch("/auth/webauthn-options/passkey", { method: "POST" })).status).toBe(
      405,
    )
  })
})
