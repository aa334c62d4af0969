/**
 * Red team 8's Auth.js cookies: session tokens as `encode()` of @auth/core
 * makes them (its HKDF key, `A256CBC-HS512`, a `kid`), issued at a time the
 * test chooses, and the session a browser with one gets from `Auth()`.
 */
import { hkdfSync } from "node:crypto"
import { EncryptJWT, base64url, calculateJwkThumbprint } from "jose"
import { Auth, type AuthConfig } from "@tessera/core"
import { get, type Jar } from "../harness/index.js"

/** The cookie Auth.js keeps its session in on http (and the salt of its key). */
export const AUTHJS_COOKIE = "authjs.session-token"

/** An Auth.js v5 session token for `claims`, issued at `iat` (seconds), valid 30 days from then. */
export async function authjsToken(
  secret: string,
  claims: Record<string, unknown>,
  iat = Math.floor(Date.now() / 1000),
): Promise<string> {
  const salt = AUTHJS_COOKIE
  const key = new Uint8Array(
    hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, 64),
  )
  const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha512")
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid })
    .setIssuedAt(iat)
    .setExpirationTime(iat + 30 * 86_400)
    .setJti(crypto.randomUUID())
    .encrypt(key)
}

/** `GET /auth/session` with the jar's cookies (the jar keeps what comes back). */
export async function sessionOf(
  config: AuthConfig,
  jar: Jar,
): Promise<{ user?: { email?: string } } | null> {
  const response = await Auth(get("/auth/session", { jar }), config)
  jar.update(response)
  return (await response.json()) as { user?: { email?: string } } | null
}
