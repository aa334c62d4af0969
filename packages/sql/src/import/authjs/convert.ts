/**
 * One Auth.js row into one Tessera row, or the reason it cannot be.
 *
 * What differs between the two, and why each conversion is what it is:
 * - Dates: Auth.js adapters store them as the engine's timestamp, an ISO
 *   string (Kysely on SQLite), epoch milliseconds (Prisma and Drizzle on
 *   SQLite) or, with Drizzle's `timestamp` mode, epoch seconds.
 * - Session tokens: Auth.js keeps the cookie value; Tessera keeps its SHA-256
 *   (hex), as `session/database.ts` in the core looks it up.
 * - `token_type`: Tessera lower-cases it when it stores an account.
 * - Passkeys: Auth.js writes credential IDs and public keys in standard base64
 *   (older versions stored IDs as base64url); Tessera looks credentials up by
 *   the browser's base64url ID, so both become unpadded base64url. A passkey's
 *   account (`type` "webauthn") is keyed by the same ID and follows it.
 * @module
 */
import { createHash } from "node:crypto"
import type { SourceRow } from "./read.js"

export class Unreadable extends Error {
  override name = "Unreadable"
}

export interface UserRow {
  id: string
  name: string | null
  email: string | null
  emailVerified: Date | null
  image: string | null
}

export interface AccountRow {
  userId: string
  type: string
  provider: string
  providerAccountId: string
  refresh_token: string | null
  access_token: string | null
  /** Seconds since the epoch. */
  expires_at: number | null
  token_type: string | null
  scope: string | null
  id_token: string | null
  session_state: string | null
}

export interface SessionRow {
  /** SHA-256 (hex) of the Auth.js cookie value. */
  sessionToken: string
  userId: string
  expires: Date
}

export interface AuthenticatorRow {
  credentialID: string
  userId: string
  providerAccountId: string
  credentialPublicKey: string
  counter: number
  credentialDeviceType: string
  credentialBackedUp: boolean
  transports: string | null
}

/** Which conversions changed a value, counted for the report. */
export interface Changes {
  tokenTypeLowered: boolean
  credentialIdReencoded: boolean
  publicKeyReencoded: boolean
  webauthnAccountReencoded: boolean
}

// ---- values ----

function text(row: SourceRow, field: string, required = false): string | null {
  const value = row[field]
  if (value == null) {
    if (required) throw new Unreadable(`no ${field}`)
    return null
  }
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "bigint") return String(value)
  throw new Unreadable(`${field} is not text`)
}

const required = (row: SourceRow, field: string) => text(row, field, true)!

/** Below this a number is taken as seconds: 1e11 ms is 1973, 1e11 s is the year 5138. */
const SECONDS_BELOW = 1e11

/** `2024-05-01 10:00:00`, `2024-05-01T10:00:00.123`, with or without a zone (none: UTC). */
const ISO_LIKE =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i

/** A number of seconds or milliseconds since the epoch, as milliseconds. */
const epochMs = (n: number) => (Math.abs(n) < SECONDS_BELOW ? n * 1000 : n)

function isoMs(match: RegExpExecArray): number {
  let zone = (match[3] ?? "Z").toUpperCase()
  if (/^[+-]\d{2}$/.test(zone)) zone += ":00"
  else if (/^[+-]\d{4}$/.test(zone)) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`
  return Date.parse(`${match[1]}T${match[2]}${zone}`)
}

export function parseDate(value: unknown, field: string): Date | null {
  if (value == null) return null
  let ms = NaN
  if (value instanceof Date) ms = value.valueOf()
  else if (typeof value === "number" || typeof value === "bigint") ms = epochMs(Number(value))
  else if (typeof value === "string") {
    const trimmed = value.trim()
    const iso = ISO_LIKE.exec(trimmed)
    if (/^-?\d+(\.\d+)?$/.test(trimmed)) ms = epochMs(Number(trimmed))
    else ms = iso ? isoMs(iso) : Date.parse(trimmed)
  }
  // A finite number past ±8.64e15 ms (a corrupted row, a "never" sentinel) is no date either:
  // `new Date` would make it `Invalid Date`, which no column stores.
  const date = new Date(Math.round(ms))
  if (!Number.isFinite(date.valueOf())) throw new Unreadable(`${field} is not a date`)
  return date
}

function integer(value: unknown, field: string): number | null {
  if (value == null || value === "") return null
  const n = Number(value)
  if (!Number.isSafeInteger(n)) throw new Unreadable(`${field} is not an integer`)
  return n
}

function bool(value: unknown, field: string): boolean {
  if (value === true || value === 1 || value === 1n) return true
  if (value === false || value === 0 || value === 0n) return false
  if (typeof value === "string" && /^(1|t|true)$/i.test(value)) return true
  if (typeof value === "string" && /^(0|f|false)$/i.test(value)) return false
  throw new Unreadable(`${field} is not a boolean`)
}

const BASE64 = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+={0,2})$/

/**
 * Standard base64 or base64url (padded or not) as unpadded base64url, or
 * `Unreadable`. Mixed alphabets are refused rather than guessed at.
 */
export function toBase64Url(value: string, field: string): string {
  const trimmed = value.trim()
  if (!BASE64.test(trimmed) || trimmed.replace(/=+$/, "").length % 4 === 1)
    throw new Unreadable(`${field} is neither base64 nor base64url`)
  const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64")
  if (bytes.length === 0) throw new Unreadable(`${field} is empty`)
  return bytes.toString("base64url")
}

/** `internal,hybrid`; also accepts a JSON array, spaces, and empty entries. */
function transports(value: unknown): string | null {
  const raw = text({ value }, "value")
  if (raw === null) return null
  let parts: unknown[]
  try {
    parts = raw.trim().startsWith("[") ? (JSON.parse(raw) as unknown[]) : raw.split(",")
  } catch {
    throw new Unreadable("transports is not a list")
  }
  if (!Array.isArray(parts) || parts.some((p) => typeof p !== "string"))
    throw new Unreadable("transports is not a list")
  const list = (parts as string[]).map((p) => p.trim()).filter(Boolean)
  return list.length ? list.join(",") : null
}

// ---- rows ----

export function toUser(row: SourceRow): UserRow {
  return {
    id: required(row, "id"),
    name: text(row, "name"),
    email: text(row, "email"),
    emailVerified: parseDate(row.emailVerified, "emailVerified"),
    image: text(row, "image"),
  }
}

export function toAccount(row: SourceRow, changes: Changes): AccountRow {
  const type = required(row, "type")
  let providerAccountId = required(row, "providerAccountId")
  if (type === "webauthn") {
    // Only when it reads as base64: an account id is the provider's business.
    try {
      const normalized = toBase64Url(providerAccountId, "providerAccountId")
      changes.webauthnAccountReencoded = normalized !== providerAccountId
      providerAccountId = normalized
    } catch {}
  }
  const tokenType = text(row, "token_type")
  changes.tokenTypeLowered = tokenType !== null && tokenType !== tokenType.toLowerCase()
  return {
    userId: required(row, "userId"),
    type,
    provider: required(row, "provider"),
    providerAccountId,
    refresh_token: text(row, "refresh_token"),
    access_token: text(row, "access_token"),
    expires_at: integer(row.expires_at, "expires_at"),
    token_type: tokenType?.toLowerCase() ?? null,
    scope: text(row, "scope"),
    id_token: text(row, "id_token"),
    session_state: text(row, "session_state"),
  }
}

/**
 * What Tessera's database sessions accept in the cookie (see TOKEN_SHAPE in the
 * core's `session/database.ts`): anything else is never looked up, so carrying
 * it would only leave a row nobody can use.
 */
const SESSION_TOKEN = /^[\x21-\x7e]{16,512}$/

export class NotASessionToken extends Unreadable {}

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex")
}

export function toSession(row: SourceRow): SessionRow {
  const token = required(row, "sessionToken")
  if (!SESSION_TOKEN.test(token))
    throw new NotASessionToken("the token is not 16-512 printable characters")
  const expires = parseDate(row.expires, "expires")
  if (!expires) throw new Unreadable("no expires")
  return { sessionToken: hashSessionToken(token), userId: required(row, "userId"), expires }
}

export function toAuthenticator(row: SourceRow, changes: Changes): AuthenticatorRow {
  const rawId = required(row, "credentialID")
  const credentialID = toBase64Url(rawId, "credentialID")
  const rawKey = required(row, "credentialPublicKey")
  const credentialPublicKey = toBase64Url(rawKey, "credentialPublicKey")
  changes.credentialIdReencoded = credentialID !== rawId
  changes.publicKeyReencoded = credentialPublicKey !== rawKey
  // Auth.js sets providerAccountId to the credential ID; keep them equal after re-encoding.
  const rawAccount = required(row, "providerAccountId")
  let providerAccountId = rawAccount
  try {
    if (toBase64Url(rawAccount, "providerAccountId") === credentialID)
      providerAccountId = credentialID
  } catch {}
  const counter = integer(row.counter, "counter")
  if (counter === null) throw new Unreadable("no counter")
  return {
    credentialID,
    userId: required(row, "userId"),
    providerAccountId,
    credentialPublicKey,
    counter,
    credentialDeviceType: required(row, "credentialDeviceType"),
    credentialBackedUp: bool(row.credentialBackedUp, "credentialBackedUp"),
    transports: transports(row.transports),
  }
}

export function noChanges(): Changes {
  return {
    tokenTypeLowered: false,
    credentialIdReencoded: false,
    publicKeyReencoded: false,
    webauthnAccountReencoded: false,
  }
}
