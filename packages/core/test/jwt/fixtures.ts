/**
 * What the jwt tests share: the salt (the session cookie's name), a user's
 * claims, the clock, and modules loaded as on a runtime without `node:crypto`.
 */
import { vi } from "vitest"

export const salt = "tessera.session-token"
export const claims = { name: "Ada", email: "ada@example.com", picture: null, sub: "user-1" }
export const now = () => Math.floor(Date.now() / 1000)

/**
 * What `load` imports, evaluated afresh where `process.getBuiltinModule` is
 * missing: the modules take their Web Crypto paths (workers, browsers).
 */
export async function loadWithoutNodeBuiltins<T>(load: () => Promise<T>): Promise<T> {
  const original = process.getBuiltinModule
  ;(process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined
  try {
    vi.resetModules()
    return await load()
  } finally {
    process.getBuiltinModule = original
    vi.resetModules()
  }
}
