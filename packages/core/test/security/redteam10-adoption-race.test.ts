/**
 * Red team 10, an Auth.js cookie adopted at the very moment its owner signs
 * out everywhere (a left-out of red team 8).
 *
 * Ending all of a user's sessions is two adapter steps: delete their records,
 * then write the mark that ends the Auth.js cookies not adopted yet
 * (`records.ts`). Adopting a cookie is two steps too: check for that mark,
 * then create the session's record. A thief presenting a stolen Auth.js
 * cookie while the owner signs out everywhere could land the record between
 * the two: after the delete, so it was not deleted; checked before the mark,
 * so it was not refused. The stolen cookie outlived "sign out everywhere" as
 * a session of its own.
 *
 * Each interleaving is made deterministic by an adapter wrapper that holds one
 * step until the other request has gone past it:
 * - the sign-out held between its delete and its mark, the whole adoption in
 *   between;
 * - the adoption held between its check and its record, the whole sign-out in
 *   between.
 *
 * The same for an OpenID provider's back-channel logout of the whole account
 * (`sub` alone), which ends the user's sessions adopted from Auth.js.
 *
 * On SQLite (a real file) and PostgreSQL, with JWT sessions and records.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest"
import type { Adapter, AdapterSessionRecord } from "@tessera/core/adapters"
import { Auth, type AuthConfig } from "@tessera/core"
import { listSessions, revokeUserSessions } from "@tessera/core/sessions"
import { localOidcProvider } from "@tessera/testing"
import { ADA, Jar, makeConfig, ORIGIN, post } from "../harness/index.js"
import type { Backend } from "../harness/backends.js"
import { oidcProviderAndDatabases } from "../harness/idp-databases.js"
import { AUTHJS_COOKIE, authjsToken, sessionOf } from "./redteam8-helpers.js"

/** The `provider` of the mark that ends a user's Auth.js cookies (session/records.ts). */
const CUTOFF_MARK = "tessera:authjs-cutoff"

/** Holds the first `createSessionRecord` matching `which` until `release()`. */
class RecordGate {
  #armed: ((record: AdapterSessionRecord) => boolean) | undefined
  #release!: () => void
  #released = new Promise<void>((resolve) => (this.#release = resolve))
  #arrive!: () => void
  /** Settles when the held write is waiting. */
  readonly arrived = new Promise<void>((resolve) => (this.#arrive = resolve))

  arm(which: (record: AdapterSessionRecord) => boolean): void {
    this.#armed = which
  }

  release(): void {
    this.#release()
  }

  wrap(adapter: Adapter): Adapter {
    const create = adapter.createSessionRecord!
    return {
      ...adapter,
      createSessionRecord: async (record) => {
        if (this.#armed?.(record)) {
          this.#armed = undefined
          this.#arrive()
          await this.#released
        }
        return create.call(adapter, record)
      },
    }
  }
}

/** A time `hours` ago, in seconds: a cookie last used then. */
const hoursAgo = (hours: number) => Math.floor(Date.now() / 1000) - hours * 3600

const LOGOUT_PATH = "/auth/backchannel-logout/local"
const setup = oidcProviderAndDatabases({
  redirectUris: [`${ORIGIN}/auth/callback/local`],
  backchannelLogoutUri: `${ORIGIN}${LOGOUT_PATH}`,
})

describe.each(setup.databases)("on %s", (_name, makeBackend) => {
  let backend: Backend
  let gate: RecordGate
  let config: AuthConfig
  let stolen: string

  beforeEach(async () => {
    backend = await makeBackend()
    await backend.adapter.createUser!({
      ...ADA,
      id: ADA.id!,
      email: ADA.email!,
      emailVerified: new Date(),
    })
    gate = new RecordGate()
    // revalidateAge 0: every check asks the record (a revoked session ends on its next request).
    config = makeConfig({
      adapter: gate.wrap(backend.adapter),
      session: { strategy: "jwt", revalidateAge: 0 },
    }).config
    stolen = await authjsToken(
      config.secret as string,
      { sub: ADA.id, email: ADA.email },
      hoursAgo(1),
    )
  })

  afterEach(async () => {
    await backend.close()
  })

  test("adopted between the sign-out's delete and its mark: the session ends with the others", async () => {
    gate.arm((record) => record.provider === CUTOFF_MARK)
    const signingOut = revokeUserSessions(config, ADA.id!)
    await gate.arrived

    // The thief's first request lands while the records are deleted and the mark not written.
    const thief = new Jar({ [AUTHJS_COOKIE]: stolen })
    await sessionOf(config, thief)
    gate.release()
    await signingOut

    expect(await sessionOf(config, thief)).toBeNull()
    expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: stolen }))).toBeNull()
    expect(await listSessions(config, ADA.id!)).toHaveLength(0)
  })

  test("checked before the sign-out, recorded after it: refused", async () => {
    gate.arm((record) => record.provider === null)
    const thief = new Jar({ [AUTHJS_COOKIE]: stolen })
    const adopting = sessionOf(config, thief)
    await gate.arrived

    // The owner signs out everywhere while the adoption is between its check and its record.
    expect(await revokeUserSessions(config, ADA.id!)).toBe(0)
    gate.release()

    expect(await adopting).toBeNull()
    expect(await sessionOf(config, thief)).toBeNull()
    expect(await sessionOf(config, new Jar({ [AUTHJS_COOKIE]: stolen }))).toBeNull()
    expect(await listSessions(config, ADA.id!)).toHaveLength(0)
  })

  test("control: without a sign-out, the held adoption completes as one session", async () => {
    gate.arm((record) => record.provider === null)
    const thief = new Jar({ [AUTHJS_COOKIE]: stolen })
    const adopting = sessionOf(config, thief)
    await gate.arrived
    gate.release()

    expect((await adopting)?.user?.email).toBe(ADA.email)
    expect((await sessionOf(config, thief))?.user?.email).toBe(ADA.email)
    expect(await listSessions(config, ADA.id!)).toHaveLength(1)
  })

  test("a back-channel logout of the account, adopted between its delete and its mark: ended", async () => {
    await backend.adapter.linkAccount!({
      userId: ADA.id!,
      type: "oidc",
      provider: "local",
      providerAccountId: "ada",
    })
    config = { ...config, providers: [localOidcProvider(setup.idp, "local")] }
    gate.arm((record) => record.provider === CUTOFF_MARK)
    const logoutToken = setup.idp.logoutToken({ sub: "ada" })
    const loggingOut = Auth(post(LOGOUT_PATH, { logout_token: logoutToken }), config)
    await gate.arrived

    const thief = new Jar({ [AUTHJS_COOKIE]: stolen })
    await sessionOf(config, thief)
    gate.release()
    expect((await loggingOut).status).toBe(200)

    expect(await sessionOf(config, thief)).toBeNull()
    expect(await listSessions(config, ADA.id!)).toHaveLength(0)
  })
})
