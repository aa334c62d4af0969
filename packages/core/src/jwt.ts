/**
 * Session tokens: JWTs encrypted as compact JWE (`alg: "dir"`, `enc: "A256GCM"`).
 *
 * The content key is derived from the secret with HKDF-SHA-256, the cookie
 * name as salt (see `jwt/keys.ts`): a token issued for one cookie cannot be
 * replayed in another. The protected header carries `kid` (the key's JWK
 * thumbprint) so that, with a list of secrets, decoding picks the right key at
 * once instead of trying each.
 *
 * Called directly, `encode`/`decode` derive their keys on each call; inside
 * `Auth()` the resolved configuration's key ring keeps them derived.
 *
 * @example
 * ```ts
 * import { encode, decode } from "@tessera/core/jwt"
 * const token = await encode({ token: { sub: "1" }, secret, salt: "tessera.session-token" })
 * const payload = await decode({ token, secret, salt: "tessera.session-token" })
 * ```
 * @module
 */
import { parseCookieHeader, readChunkedCookie } from "./http/cookies.js"
import { decrypt, encrypt } from "./jwt/codec.js"
import { KeyRing } from "./jwt/keys.js"
import { processEnv, secretsFromEnv } from "./config/env.js"
import { MissingSecret } from "./errors.js"
import type { Awaitable, LoggerInstance } from "./types.js"

export { deriveEncryptionKey } from "./jwt/keys.js"

/**
 * The claims Tessera puts in a session token: the user's name, e-mail, picture and id (`sub`).
 *
 * @see [RFC 7519 §4.1, Registered Claim Names](https://www.rfc-editor.org/rfc/rfc7519.html#section-4.1)
 */
export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  /** The user id. */
  sub?: string
  iat?: number
  exp?: number
  jti?: string
}

/**
 * The decoded session token. Extend it through module augmentation.
 *
 * @see [RFC 7519 §4, JWT Claims](https://www.rfc-editor.org/rfc/rfc7519.html#section-4)
 * @see [Auth.js: JWT](https://authjs.dev/reference/core/jwt#jwt)
 */
export interface JWT extends Record<string, unknown>, DefaultJWT {}

/**
 * What `encode` takes.
 *
 * @see {@link encode}
 */
export interface JWTEncodeParams<Payload = JWT> {
  /** Seconds until the token expires. Default 30 days. */
  maxAge?: number
  /** The cookie name the token is stored in; part of the key derivation. */
  salt: string
  /** One secret, or a list: encode uses the first. */
  secret: string | readonly string[]
  token?: Payload
}

/**
 * What `decode` takes.
 *
 * @see {@link decode}
 */
export interface JWTDecodeParams {
  salt: string
  /** One secret, or a list: decode accepts a token made with any of them (rotation). */
  secret: string | readonly string[]
  token?: string
}

/**
 * The `jwt` option: the session token's lifetime, and `encode`/`decode` to replace Tessera's JWE.
 *
 * @see [Auth.js: JWTOptions](https://authjs.dev/reference/core/jwt#jwtoptions)
 */
export interface JWTOptions {
  /** Seconds. Default: `session.maxAge`. */
  maxAge: number
  encode: (params: JWTEncodeParams) => Awaitable<string>
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

/**
 * Encrypts `token` into a compact JWE with the first secret. Adds `iat`, `exp` and `jti`.
 *
 * @param params.token The claims.
 * @param params.secret One secret or a list (the first is used).
 * @param params.salt The cookie name the token is for.
 * @param params.maxAge Seconds until it expires (default 30 days).
 * @see https://www.rfc-editor.org/rfc/rfc7516 (JWE), RFC 5869 (HKDF)
 */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  const { token = {}, secret, salt, maxAge = DEFAULT_MAX_AGE } = params
  requireSalt(salt)
  return encrypt(KeyRing.for(secret), salt, token as Record<string, unknown>, maxAge)
}

/**
 * Decrypts and validates a token made by `encode` with any of the secrets.
 * Returns `null` for a missing token; throws for a token that is malformed,
 * tampered with, expired, or made with another secret. Errors never carry the
 * token's claims.
 *
 * @param params.token The compact JWE.
 * @param params.secret One secret or a list (rotation: any may have made it).
 * @param params.salt The cookie name the token was made for.
 * @see [RFC 7516 §5.2, Message Decryption](https://www.rfc-editor.org/rfc/rfc7516.html#section-5.2)
 * @see [Auth.js: decode()](https://authjs.dev/reference/core/jwt#decode)
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const { token, secret, salt } = params
  if (!token) return null
  requireSalt(salt)
  return (await decrypt(KeyRing.for(secret), salt, token)) as Payload
}

/**
 * Auth.js v5's `encode`/`decode` fail without a salt (v4's took none). Without
 * this check a v4-style call would derive a key from the text "undefined": a
 * token no `getToken` or session read can open, made without a word.
 */
function requireSalt(salt: unknown): asserts salt is string {
  if (typeof salt !== "string")
    throw new TypeError(
      'jwt encode/decode need a `salt`: the name of the cookie the token is for ("tessera.session-token")',
    )
}

/** Five base64url parts, the second (the encrypted key of `dir`) empty or not. */
const COMPACT_JWE =
  /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

/**
 * What `getToken` takes.
 *
 * @see {@link getToken}
 */
export interface GetTokenParams<R extends boolean = false> {
  /**
   * The request (or anything with its headers) carrying the session cookie or `Authorization:
   * Bearer`: a `Request`, or a `node:http` or Express request (headers as `IncomingHttpHeaders`;
   * Express's `secure` says https).
   */
  req:
    Request | { headers: Headers | Record<string, string | string[] | undefined>; secure?: boolean }
  /** Default: `AUTH_SECRET` (and `AUTH_SECRET_1..3`) from the environment. */
  secret?: string | string[]
  /** Use the `__Secure-` cookie name. Default: true when the request URL is https, or `req.secure`. */
  secureCookie?: boolean
  /** Default `tessera.session-token` (with `__Secure-` when secure). */
  cookieName?: string
  /** Default: the cookie name. */
  salt?: string
  /** Return the encrypted token instead of decoding it. */
  raw?: R
  decode?: JWTOptions["decode"]
  /**
   * As in Auth.js. A token that does not decode is reported to its `debug` (the failure's
   * kind only, never the token or its claims); `getToken` still answers `null`.
   */
  logger?: Partial<LoggerInstance> | Console
}

/**
 * Reads the session token from the request's cookies (chunked or not) or its
 * `Authorization: Bearer` header and decodes it. Returns `null` when there is no
 * valid token; never throws for a bad token.
 *
 * @param params The request, the secret (default `AUTH_SECRET`) and where to find the token.
 * @see [RFC 6750 §2.1, Authorization Request Header Field](https://www.rfc-editor.org/rfc/rfc6750.html#section-2.1) (`Authorization: Bearer`)
 * @see [Auth.js: getToken()](https://authjs.dev/reference/core/jwt#gettoken)
 */
export async function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string | null : JWT | null> {
  const { req, raw } = params
  const headers = req.headers instanceof Headers ? req.headers : headersOf(req.headers)
  // Express's `req.url` is a path: its `secure` (https, as `trust proxy` decides) says instead.
  const secureCookie =
    params.secureCookie ??
    (("secure" in req && req.secure === true) ||
      ("url" in req && typeof req.url === "string" && req.url.startsWith("https:")))
  const cookieName =
    params.cookieName ?? (secureCookie ? "__Secure-tessera.session-token" : "tessera.session-token")
  const salt = params.salt ?? cookieName

  let token = readChunkedCookie(parseCookieHeader(headers.get("cookie")), cookieName)
  const authorization = headers.get("authorization")
  if (!token && authorization?.startsWith("Bearer ")) {
    token = authorization.slice("Bearer ".length).trim()
  }
  if (!token) return null
  // Raw means "the token as sent", not "whatever the header held": only a compact JWE.
  if (raw) return (COMPACT_JWE.test(token) ? token : null) as any

  const secret = params.secret ?? secretsOf()
  if (!secret || (Array.isArray(secret) && secret.length === 0)) {
    throw new MissingSecret("getToken needs a secret: pass `secret` or set AUTH_SECRET")
  }
  try {
    return (await (params.decode ?? decode)({ token, secret, salt })) as any
  } catch (error) {
    const kind = error instanceof Error ? error.name : typeof error
    params.logger?.debug?.("getToken: the token did not decode", { kind })
    return null
  }
}

/** `Headers` from a plain object, as `node:http` has them: absent values left out, lists joined. */
function headersOf(record: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(record)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value)
  }
  return headers
}

/** The environment's secrets in Auth.js's order (see `config/env.ts`), or `undefined`. */
function secretsOf(): string[] | undefined {
  const env = processEnv()
  const list = env ? secretsFromEnv(env) : []
  return list.length ? list : undefined
}
