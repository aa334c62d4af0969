/**
 * Decides, row by row, what the import does: insert, skip as already present,
 * or leave behind with a reason. Pure: it sees the Auth.js rows and the keys
 * Tessera's tables already hold, and touches no database, so a dry run and
 * `--apply` reach the same decisions.
 *
 * Rules, and why:
 * - A row whose key Tessera already has is skipped, never overwritten: Tessera
 *   may have changed it since (a second run, or an app already live on it).
 * - A user whose e-mail Tessera already has under another id is not carried,
 *   nor is anything of theirs: merging two people's accounts is not an import's
 *   call to make.
 * - E-mails differing only by case are two users in Auth.js and stay two users;
 *   the report names them, since an e-mail sign-in reaches only the exact one.
 * - Accounts, sessions and passkeys follow their user: carried only if the user
 *   is in Tessera's table afterwards.
 * - Expired sessions are dropped (Tessera would delete them on first sight).
 * - Verification tokens are never carried: Auth.js keeps SHA-256(token + secret)
 *   and Tessera HMAC-SHA-256(secret, token); the mailed token itself is in no
 *   table, so no secret turns one into the other. Links expire within 24 hours.
 * @module
 */
import {
  noChanges,
  NotASessionToken,
  parseDate,
  toAccount,
  toAuthenticator,
  toSession,
  toUser,
  Unreadable,
  type AccountRow,
  type AuthenticatorRow,
  type Changes,
  type SessionRow,
  type UserRow,
} from "./convert.js"
import type { Kind } from "./detect.js"
import type { SourceRows } from "./read.js"

/** The keys Tessera's tables hold already. */
export interface ExistingKeys {
  userIds: Set<string>
  /** e-mail -> user id */
  emails: Map<string, string>
  /** `${provider}\0${providerAccountId}` */
  accounts: Set<string>
  /** SHA-256 of session tokens */
  sessions: Set<string>
  credentialIds: Set<string>
}

export function noExistingKeys(): ExistingKeys {
  return {
    userIds: new Set(),
    emails: new Map(),
    accounts: new Set(),
    sessions: new Set(),
    credentialIds: new Set(),
  }
}

export const accountKey = (provider: string, providerAccountId: string) =>
  `${provider}\0${providerAccountId}`

/** Rows left behind for one reason, with a few examples (ids, never tokens). */
export interface Dropped {
  reason: string
  count: number
  examples: string[]
}

export interface KindSummary {
  /** Rows in the Auth.js table. */
  found: number
  /** Rows to insert (or inserted). */
  imported: number
  /** Rows Tessera's table has already: skipped. */
  present: number
  dropped: Dropped[]
}

export interface Plan {
  users: UserRow[]
  accounts: AccountRow[]
  sessions: SessionRow[]
  authenticators: AuthenticatorRow[]
  summary: Record<Kind, KindSummary>
  /** Things carried as they are that the operator should look at. */
  conflicts: string[]
  /** Values converted on the way (counts). */
  conversions: string[]
}

const EXAMPLES = 5

class Tally {
  readonly summary: KindSummary
  private readonly byReason = new Map<string, Dropped>()
  constructor(found: number) {
    this.summary = { found, imported: 0, present: 0, dropped: [] }
  }
  drop(reason: string, example?: string) {
    let entry = this.byReason.get(reason)
    if (!entry) {
      entry = { reason, count: 0, examples: [] }
      this.byReason.set(reason, entry)
      this.summary.dropped.push(entry)
    }
    entry.count++
    if (example !== undefined && entry.examples.length < EXAMPLES) entry.examples.push(example)
  }
}

function unreadable(error: unknown): string {
  if (error instanceof Unreadable) return `unreadable: ${error.message}`
  throw error
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

export function planImport(source: SourceRows, existing: ExistingKeys, now: Date): Plan {
  const plan: Plan = {
    users: [],
    accounts: [],
    sessions: [],
    authenticators: [],
    summary: {} as Plan["summary"],
    conflicts: [],
    conversions: [],
  }
  const counts = { tokenType: 0, credentialId: 0, publicKey: 0, webauthnAccount: 0 }
  const tally = (changes: Changes) => {
    if (changes.tokenTypeLowered) counts.tokenType++
    if (changes.credentialIdReencoded) counts.credentialId++
    if (changes.publicKeyReencoded) counts.publicKey++
    if (changes.webauthnAccountReencoded) counts.webauthnAccount++
  }

  // ---- users ----
  const users = new Tally(source.users.length)
  /** Users that Tessera's table holds once the import is done. */
  const carried = new Set<string>()
  const emails = new Map(existing.emails)
  for (const row of source.users) {
    let user: UserRow
    try {
      user = toUser(row)
    } catch (error) {
      users.drop(unreadable(error), String(row.id ?? "?"))
      continue
    }
    if (existing.userIds.has(user.id)) {
      users.summary.present++
      carried.add(user.id)
      continue
    }
    if (user.email !== null) {
      const owner = emails.get(user.email)
      if (owner !== undefined && owner !== user.id) {
        users.drop(
          existing.emails.get(user.email) === owner
            ? "its e-mail belongs to another user in Tessera's table"
            : "its e-mail is another Auth.js user's too",
          `${user.id} (${user.email})`,
        )
        continue
      }
      emails.set(user.email, user.id)
    }
    plan.users.push(user)
    carried.add(user.id)
  }
  users.summary.imported = plan.users.length
  plan.summary.users = users.summary

  // E-mails that differ only by case, among the users Tessera will hold.
  const byFolded = new Map<string, { email: string; id: string }[]>()
  for (const [email, id] of emails) {
    const folded = email.toLowerCase()
    byFolded.set(folded, [...(byFolded.get(folded) ?? []), { email, id }])
  }
  // Only groups with an Auth.js user in them: Tessera's own users are not this import's business.
  const fromAuthjs = new Set(source.users.map((row) => String(row.id)))
  for (const group of byFolded.values())
    if (group.length > 1 && group.some((u) => fromAuthjs.has(u.id)))
      plan.conflicts.push(
        `users ${group
          .sort((a, b) => (a.email < b.email ? -1 : 1))
          .map((u) => `${u.id} (${u.email})`)
          .join(", ")}: e-mails differ only by case;` + " kept as separate users, unchanged",
      )
  // Tessera looks addresses up exactly as it writes them (trimmed, lower case, ASCII): an
  // address kept as Auth.js stored it from an OAuth profile (`Ada@Example.com`) is never
  // found by an e-mail sign-in or by linking, whose user would get a second account.
  for (const user of plan.users) {
    const { email } = user
    if (email === null || byFolded.get(email.toLowerCase())!.length > 1) continue
    if (email !== email.trim().toLowerCase() || /[^\x20-\x7e]/.test(email))
      plan.conflicts.push(
        `user ${user.id} (${email}): not as Tessera writes e-mails (trimmed, lower case, ASCII);` +
          " e-mail sign-in and linking will not find it until you correct it",
      )
  }

  // ---- accounts ----
  const accounts = new Tally(source.accounts.length)
  const accountKeys = new Set(existing.accounts)
  for (const row of source.accounts) {
    const changes = noChanges()
    let account: AccountRow
    try {
      account = toAccount(row, changes)
    } catch (error) {
      accounts.drop(unreadable(error), `${row.provider ?? "?"}/${row.providerAccountId ?? "?"}`)
      continue
    }
    const key = accountKey(account.provider, account.providerAccountId)
    const label = `${account.provider}/${account.providerAccountId}`
    if (existing.accounts.has(key)) {
      accounts.summary.present++
      continue
    }
    if (!carried.has(account.userId)) {
      accounts.drop("its user is not carried", label)
      continue
    }
    if (accountKeys.has(key)) {
      accounts.drop("another Auth.js account has the same provider and id", label)
      continue
    }
    accountKeys.add(key)
    tally(changes)
    plan.accounts.push(account)
  }
  accounts.summary.imported = plan.accounts.length
  plan.summary.accounts = accounts.summary

  // ---- sessions ----
  const sessions = new Tally(source.sessions.length)
  const sessionKeys = new Set(existing.sessions)
  for (const row of source.sessions) {
    let session: SessionRow
    try {
      session = toSession(row)
    } catch (error) {
      // Never an example here: the row's only key is the token.
      sessions.drop(
        error instanceof NotASessionToken
          ? "its token is not one Tessera accepts (16-512 printable characters)"
          : unreadable(error),
      )
      continue
    }
    if (existing.sessions.has(session.sessionToken)) {
      sessions.summary.present++
      continue
    }
    if (session.expires.valueOf() <= now.valueOf()) {
      sessions.drop("expired")
      continue
    }
    if (!carried.has(session.userId)) {
      sessions.drop("its user is not carried", `user ${session.userId}`)
      continue
    }
    if (sessionKeys.has(session.sessionToken)) {
      sessions.drop("another Auth.js session has the same token")
      continue
    }
    sessionKeys.add(session.sessionToken)
    plan.sessions.push(session)
  }
  sessions.summary.imported = plan.sessions.length
  plan.summary.sessions = sessions.summary

  // ---- verification tokens ----
  const tokens = new Tally(source.verification_tokens.length)
  for (const row of source.verification_tokens) {
    let live = false
    try {
      live = (parseDate(row.expires, "expires")?.valueOf() ?? 0) > now.valueOf()
    } catch {}
    tokens.drop(
      live
        ? "unexpired sign-in link: Auth.js stores SHA-256(token + secret), Tessera a keyed HMAC of" +
            " the token, and the token itself is in no table; the user asks for a new link"
        : "expired sign-in link",
    )
  }
  plan.summary.verification_tokens = tokens.summary

  // ---- authenticators ----
  const authenticators = new Tally(source.authenticators.length)
  const credentialIds = new Set(existing.credentialIds)
  for (const row of source.authenticators) {
    const changes = noChanges()
    let authenticator: AuthenticatorRow
    try {
      authenticator = toAuthenticator(row, changes)
    } catch (error) {
      authenticators.drop(unreadable(error), String(row.credentialID ?? "?"))
      continue
    }
    const label = authenticator.credentialID
    if (existing.credentialIds.has(authenticator.credentialID)) {
      authenticators.summary.present++
      continue
    }
    if (!carried.has(authenticator.userId)) {
      authenticators.drop("its user is not carried", label)
      continue
    }
    if (credentialIds.has(authenticator.credentialID)) {
      authenticators.drop("another Auth.js passkey has the same credential ID", label)
      continue
    }
    credentialIds.add(authenticator.credentialID)
    tally(changes)
    plan.authenticators.push(authenticator)
  }
  authenticators.summary.imported = plan.authenticators.length
  plan.summary.authenticators = authenticators.summary

  if (plan.sessions.length)
    plan.conversions.push(
      `${plural(plan.sessions.length, "session token")} stored as SHA-256, as Tessera keeps them`,
    )
  if (counts.tokenType)
    plan.conversions.push(`token_type lower-cased on ${plural(counts.tokenType, "account")}`)
  if (counts.credentialId)
    plan.conversions.push(
      `${plural(counts.credentialId, "passkey credential ID")} re-encoded as base64url`,
    )
  if (counts.publicKey)
    plan.conversions.push(
      `${plural(counts.publicKey, "passkey public key")} re-encoded as base64url`,
    )
  if (counts.webauthnAccount)
    plan.conversions.push(
      `${plural(counts.webauthnAccount, "passkey account id")} re-encoded as base64url, as its credential ID`,
    )
  return plan
}
