/**
 * A stolen session cookie (and nothing else: no password, no authenticator)
 * must not be turned into lasting access. Sessions outlive the sign-in by
 * days; the attacker who copied one would add their own passkey, or set up
 * a second factor the real owner does not hold (locking them out), and keep
 * the account after the owner signs out everywhere. Adding a sign-in method
 * or a second factor therefore needs a recent sign-in
 * (`session.recentSignInAge`, default 10 minutes); turning a second factor
 * off needs a current code.
 *
 * Driven through `Auth()` with JWT and database sessions on the memory
 * adapter, the clock moved by the test.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import {
  ADA,
  Browser,
  credentialsProvider,
  csrfToken,
  get,
  makeConfig,
  ORIGIN,
  post,
  signIn,
} from "../harness/index.js"
import { issuerOn, StandIn, type FakeIssuer } from "../harness/stand-in.js"
import { codeFor, enableTwoFactor, fakeClock, Jar, postForm } from "../two-factor/helpers.js"
import { SoftAuthenticator } from "@tessera/testing/webauthn-authenticator"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"

const MINUTE = 60_000

afterEach(() => {
  vi.useRealTimers()
})

/** A copy of every cookie in `jar`: what an attacker lifts from a browser. */
function steal(jar: Jar): Jar {
  const copy = new Jar()
  for (const [name, value] of jar.entries()) copy.set(name, value)
  return copy
}

describe.each(["jwt", "database"] as const)("second factors with %s sessions", (strategy) => {
  let config: AuthConfig
  let adapter: ReturnType<typeof MemoryAdapter>
  beforeEach(async () => {
    adapter = MemoryAdapter()
    await adapter.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
    config = makeConfig({ adapter, session: { strategy } }).config
  })

  test("a session signed in an hour ago cannot set up a second factor; a fresh one can", async () => {
    const clock = fakeClock()
    const { jar } = await signIn(config)
    clock.nextStep(60 * 60)
    const thief = steal(jar)
    expect(
      (await Auth(get("/auth/session", { jar: thief }), config).then((r) => r.json())) as any,
    ).not.toBeNull()

    const setup = await postForm(config, thief, "/auth/two-factor/setup")
    expect(setup.status).toBe(403)
    expect(await setup.json()).toMatchObject({ error: "RecentSignInRequired" })
    expect(await adapter.getTwoFactor!(ADA.id!)).toBeNull()

    // The owner signs in again: the fresh session may.
    const { jar: owner } = await signIn(config)
    await enableTwoFactor(config, owner)
    expect((await adapter.getTwoFactor!(ADA.id!))?.enabledAt).toBeInstanceOf(Date)
  })

  test("within the window it may; session.recentSignInAge moves the window", async () => {
    const clock = fakeClock()
    const { jar } = await signIn(config)
    clock.nextStep(9 * 60)
    expect((await postForm(config, jar, "/auth/two-factor/setup")).status).toBe(200)

    const strict = makeConfig({ adapter, session: { strategy, recentSignInAge: 60 } }).config
    const { jar: other } = await signIn(strict)
    clock.nextStep(2 * 60)
    expect((await postForm(strict, other, "/auth/two-factor/setup")).status).toBe(403)
  })

  test("a session update cannot make the sign-in recent, even when the jwt callback merges it", async () => {
    const clock = fakeClock()
    const merging = makeConfig({
      adapter,
      session: { strategy },
      callbacks: {
        // The Auth.js pattern that copies the client's data into the token.
        jwt: ({ token, trigger, session }) =>
          trigger === "update" ? { ...token, ...(session as object) } : token,
      },
    }).config
    const { jar } = await signIn(merging)
    clock.nextStep(60 * 60)
    const { token } = await csrfToken(merging, jar)
    const now = Math.floor(Date.now() / 1000)
    const update = await Auth(
      post(
        "/auth/session",
        { csrfToken: token, data: { auth_time: now, iat: now } },
        { jar, json: true },
      ),
      merging,
    )
    jar.update(update)
    expect(update.status).toBe(200)
    expect((await postForm(merging, jar, "/auth/two-factor/setup")).status).toBe(403)
  })

  test("a stolen session cannot turn the second factor off without a current code", async () => {
    const clock = fakeClock()
    const { jar } = await signIn(config)
    const { secret } = await enableTwoFactor(config, jar)
    const thief = steal(jar)
    for (const code of [undefined, "000000", codeFor(secret, Date.now() - 10 * MINUTE)]) {
      const response = await postForm(
        config,
        thief,
        "/auth/two-factor/disable",
        code === undefined ? {} : { code },
      )
      expect(response.status).toBeGreaterThanOrEqual(400)
    }
    clock.nextStep()
    expect((await adapter.getTwoFactor!(ADA.id!))?.enabledAt).toBeInstanceOf(Date)
  })
})

describe.each(["jwt", "database"] as const)("passkeys with %s sessions", (strategy) => {
  test("a session signed in an hour ago cannot add the thief's passkey; a fresh one can", async () => {
    const clock = fakeClock()
    const { config, store } = passkeyConfig({ session: { strategy } })
    const owner = new PasskeyBrowser(config)
    expect((await owner.registerNew("owner@example.com")).status).toBe(302)
    expect(store.authenticators.size).toBe(1)
    clock.nextStep(60 * 60)

    // The thief's browser holds the owner's cookies and the thief's own authenticator.
    const thief = new PasskeyBrowser(config)
    for (const [name, value] of owner.jar.entries()) thief.jar.set(name, value)
    expect(await thief.session()).not.toBeNull()
    const options = await thief.options()
    expect(options.status).toBe(403)
    expect(options.body).toMatchObject({ error: "RecentSignInRequired" })
    // Asking explicitly changes nothing.
    expect((await thief.options({ action: "register" })).status).toBe(403)
    expect(store.authenticators.size).toBe(1)

    // Signing in with a passkey is not adding one: allowed whenever.
    expect((await thief.options({ action: "authenticate" })).status).toBe(200)

    // The owner, after signing in again, adds a laptop.
    await owner.signInWithPasskey()
    const { status, body } = await owner.options()
    expect(status).toBe(200)
    const laptop = new SoftAuthenticator()
    const added = await owner.callback(
      "register",
      laptop.register(body.options, { origin: owner.origin }),
    )
    expect(added.status).toBe(302)
    expect(store.authenticators.size).toBe(2)
  })
})

describe("sessions that do not record their sign-in time", () => {
  test("database sessions on an adapter without session records: unchecked by default, with a warning; refused once the app sets the window", async () => {
    const adapter = MemoryAdapter()
    delete (adapter as Partial<typeof adapter>).listSessionRecords
    delete (adapter as Partial<typeof adapter>).deleteSessionRecords
    await adapter.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
    // An Auth.js adapter's sessions have no sign-in time: the check cannot apply, and says so.
    const { config, log } = makeConfig({ adapter, session: { strategy: "database" } })
    const { jar } = await signIn(config)
    expect(log.warnings).toContain("recent-sign-in-unenforced")
    expect((await postForm(config, jar, "/auth/two-factor/setup")).status).toBe(200)

    // The app asks for the check anyway: nothing shows such a session is recent.
    const strict = makeConfig({
      adapter,
      session: { strategy: "database", recentSignInAge: 600 },
      debug: true,
    })
    const refused = await postForm(strict.config, jar, "/auth/two-factor/setup")
    expect(refused.status).toBe(403)
    expect(strict.log.warnings).not.toContain("recent-sign-in-unenforced")
    expect(strict.log.refusals.map((r) => (r as { type?: string }).type)).toContain(
      "RecentSignInRequired",
    )
  })

  test("session.recentSignInAge must be a positive number of seconds", async () => {
    for (const recentSignInAge of [0, -1, Number.NaN, "600" as unknown as number]) {
      const { config, log } = makeConfig({ session: { recentSignInAge } })
      const response = await Auth(get("/auth/session"), config)
      expect(response.status).toBe(500)
      expect(log.errors.map((e) => e.message).join()).toMatch(/recentSignInAge/)
    }
  })
})

describe.each(["jwt", "database"] as const)(
  "linking an OAuth account with %s sessions",
  (strategy) => {
    let standIn: StandIn
    let issuer: FakeIssuer
    beforeAll(async () => {
      standIn = await StandIn.start()
      issuer = await issuerOn(standIn, { idTokenClaims: () => ({}) })
    })
    afterAll(() => standIn?.stop())

    async function setup() {
      const adapter = MemoryAdapter()
      await adapter.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
      const { config } = makeConfig({
        adapter,
        session: { strategy },
        providers: [
          credentialsProvider(),
          {
            id: "idp",
            name: "IdP",
            type: "oidc" as const,
            issuer: issuer.issuer,
            clientId: "client-1",
            clientSecret: "client-1-secret",
            dangerouslyAllowInsecureHttpRequests: true,
          },
        ],
      })
      return { adapter, config }
    }

    /** The OpenID sign-in of `sub`, started and finished in `browser`. */
    async function oidcSignIn(browser: Browser, sub: string) {
      const start = await browser.startSignIn("idp")
      return browser.request(issuer.authorize(new URL(start.headers.get("location")!), sub).href)
    }

    const linkedTo = (adapter: ReturnType<typeof MemoryAdapter>, sub: string) =>
      [...adapter.store.accounts.values()].find((a) => a.providerAccountId === sub)?.userId

    test("a session signed in an hour ago cannot link the thief's account; a fresh one can", async () => {
      const clock = fakeClock()
      const { adapter, config } = await setup()
      const { jar } = await signIn(config)
      clock.nextStep(60 * 60)

      const thief = new Browser(config, ORIGIN, steal(jar))
      const done = await oidcSignIn(thief, "mallory")
      expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=SessionRequired`)
      expect(linkedTo(adapter, "mallory")).toBeUndefined()
      expect(adapter.store.users.size).toBe(1)

      // Ada, signed in a minute ago, links her own account.
      const { jar: fresh } = await signIn(config)
      clock.nextStep(60)
      const owner = new Browser(config, ORIGIN, fresh)
      expect((await oidcSignIn(owner, "ada-at-idp")).status).toBe(302)
      expect(linkedTo(adapter, "ada-at-idp")).toBe(ADA.id)

      // Signing in with an account linked already is how a stale session gets fresh: allowed.
      clock.nextStep(60 * 60)
      const again = await oidcSignIn(owner, "ada-at-idp")
      expect(again.headers.get("location")).toBe(`${ORIGIN}/`)
      expect(await owner.session()).toMatchObject({ user: { email: ADA.email } })
    })
  },
)
