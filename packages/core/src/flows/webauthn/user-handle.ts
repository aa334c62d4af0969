/**
 * The WebAuthn user handle (`user.id` in registration options): an opaque id of
 * at most 64 bytes that the authenticator stores with a discoverable credential.
 * It is the user's id in UTF-8, so an authenticator replaces its older passkey
 * for the same account instead of keeping both; ids too long for that are hashed.
 * @module
 */
const MAX_HANDLE_BYTES = 64

export async function userHandleOf(userId: string): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = new TextEncoder().encode(userId)
  if (bytes.length > 0 && bytes.length <= MAX_HANDLE_BYTES) return bytes
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))
}
