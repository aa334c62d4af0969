/**
 * The session record of an adopted Auth.js session cookie (`authjs-adoption.ts`,
 * with session records): one Auth.js cookie is one session, adopted once, and
 * never one that ended with its user's other sessions or that skipped their
 * second factor. Loaded with the adoption steps: almost no request needs it.
 * @module
 */
import type { AdapterUser } from "../adapters.js"
import type { RequestContext } from "../context.js"
import { callAdapter } from "../lib/adapter.js"
import { sha256Hex } from "../lib/crypto.js"
import { singleFlight } from "../lib/single-flight.js"
import { lazy } from "../flows/lazy.js"

/** Session records' steps (the `session-records` chunk). */
const records = lazy(() => import("./records.js"))

const now = () => Math.floor(Date.now() / 1000)

/**
 * The record claims for a session adopted from Auth.js (`authjs-cookies.ts`),
 * which has no record: a record for a user the adapter stores, so that the
 * session can be listed and revoked like any other; `sid: null` for a user it
 * does not (one `authorize` returned), as at a sign-in.
 *
 * One Auth.js cookie is one session: the record's id derives from the cookie,
 * so presenting it again while that session lives rejoins it (the parallel
 * requests of the browser that moves over), and the first adoption is noted
 * (a verification token, until the cookie's expiry). The Auth.js cookie stays
 * a valid token until then: without the note, a copy presented after its
 * owner signed out everywhere would mint a new record, a new session, each
 * time. Nor is a cookie adopted that was last used (`iat`: Auth.js renews it
 * on every check) before all the user's sessions last ended: another device's,
 * never adopted, ended with them; nor one used once the user had a second
 * factor, which Auth.js never asked for. `null`: the cookie signs no one in.
 */
export async function adoptedSessionClaims(
  ctx: RequestContext,
  sub: unknown,
  exp: number,
  cookie: string,
  iat: unknown,
): Promise<{ sid: string | null; revalidated_at: number } | null> {
  const { config } = ctx
  const stored =
    typeof sub === "string" && sub !== "" ? await callAdapter(config, "getUser", sub) : null
  if (!stored) return { sid: null, revalidated_at: now() }
  // A hash, not an HMAC: the same cookie names the same session after a secret rotation.
  const digest = await sha256Hex(cookie)
  // A browser's parallel first requests carry one cookie: one adoption in this process.
  return singleFlight(config.authjsAdoptions, digest, () =>
    adoptOnce(ctx, stored, digest, exp, iat),
  )
}

/**
 * Whether an Auth.js cookie of `userId` last used at `lastUsed` (seconds;
 * unknown: the worst case) skipped their second factor. Auth.js knows none: a
 * cookie it issued or renewed once the user had one (an app still partly on
 * Auth.js, with the same secret) never asked for it. From before, it stays, as
 * the user's other sessions from before the factor do. Asked with or without
 * session records.
 */
export async function skipsSecondFactor(
  ctx: RequestContext,
  userId: unknown,
  lastUsed: number | undefined,
): Promise<boolean> {
  const { config } = ctx
  if (!config.twoFactor || typeof userId !== "string" || userId === "") return false
  const factor = await callAdapter(config, "getTwoFactor", userId)
  const enabled = factor?.enabledAt ? Math.floor(factor.enabledAt.valueOf() / 1000) : undefined
  return enabled !== undefined && (lastUsed === undefined || lastUsed >= enabled)
}

/** The adoption of the Auth.js cookie hashed `digest`, for the stored user it names. */
async function adoptOnce(
  ctx: RequestContext,
  stored: AdapterUser,
  digest: string,
  exp: number,
  iat: unknown,
): Promise<{ sid: string | null; revalidated_at: number } | null> {
  const { config } = ctx
  const { adoptionCutoff, endedByCutoff, newRecord } = await records()
  const id = digest.slice(0, 32)
  const expires = new Date(exp * 1000)
  /** The session this cookie became, if it still lives: `undefined` when there is none. */
  const rejoin = async () => {
    const live = await callAdapter(config, "touchSessionRecord", id, {
      lastSeenAt: new Date(),
      expires,
    })
    if (live) return live.userId === stored.id ? { sid: id, revalidated_at: now() } : null
    return undefined
  }
  const live = await rejoin()
  if (live !== undefined) return live
  // When the cookie was last used (Auth.js renews `iat` on every check); unknown: the worst case.
  const lastUsed = typeof iat === "number" ? iat : undefined
  // Last used before the user's sessions all ended (sign out everywhere): it ended with them.
  if (endedByCutoff(await adoptionCutoff(config, stored.id), lastUsed)) return null
  if (await skipsSecondFactor(ctx, stored.id, lastUsed)) return null
  if (typeof config.adapter?.createVerificationToken === "function") {
    try {
      await callAdapter(config, "createVerificationToken", {
        identifier: "authjs-adopted",
        token: digest,
        expires,
      })
    } catch {
      // Adopted before: by a request racing this one in another process (its record may be
      // there by now), or as a session that has ended (revoked, signed out, expired).
      return (await rejoin()) ?? null
    }
  }
  await callAdapter(config, "createSessionRecord", {
    ...newRecord(ctx, stored.id, null, expires),
    id,
  })
  // Signed out everywhere between the check above and this record (whose delete it missed):
  // the mark is there now, or the sign-out's sweep ends the record (records.ts).
  if (endedByCutoff(await adoptionCutoff(config, stored.id), lastUsed)) {
    await callAdapter(config, "deleteSessionRecords", { id, userId: stored.id })
    return null
  }
  return { sid: id, revalidated_at: now() }
}
