/**
 * JWTs as an attacker makes them, for the OpenID security tests: `hmacJwt` MACs claims with
 * a shared secret (the client secret, which travels with every token request), and
 * `base64urlJson` encodes a header or payload (for an unsigned `alg: "none"` token).
 */

/** A JSON value as one base64url part of a compact JWT. */
export const base64urlJson = (value: unknown) =>
  Buffer.from(JSON.stringify(value)).toString("base64url")

/** A compact JWT of `claims`, HS256 under `secret`: one whoever knows the secret can make. */
export async function hmacJwt(claims: Record<string, unknown>, secret: string): Promise<string> {
  const input = `${base64urlJson({ alg: "HS256", typ: "JWT" })}.${base64urlJson(claims)}`
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  )
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(input))
  return `${input}.${Buffer.from(signature).toString("base64url")}`
}
