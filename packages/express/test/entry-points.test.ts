/**
 * `@auth/express/providers/<id>`, `/adapters` and `customFetch` after `@auth/` ->
 * `@tessera/`: the built package re-exports core's own providers (the same
 * factories, so `instanceof`-free identity holds) and symbol.
 */
import { readdirSync } from "node:fs"
import { expect, test } from "vitest"
import { customFetch } from "@tessera/core"

const ids = readdirSync(new URL("../../core/src/providers/", import.meta.url))
  .filter((file) => file.endsWith(".ts") && file !== "index.ts")
  .map((file) => file.slice(0, -3))

test("every provider module of core is at @tessera/express/providers/<id>, the same exports", async () => {
  for (const id of ids) {
    const mine = await import(`@tessera/express/providers/${id}`)
    const core = await import(`@tessera/core/providers/${id}`)
    expect({ id, exports: Object.keys(mine).sort() }).toEqual({
      id,
      exports: Object.keys(core).sort(),
    })
    if (core.default) expect(mine.default).toBe(core.default)
  }
})

test("@tessera/express exports customFetch; /providers and /adapters resolve", async () => {
  expect((await import("@tessera/express")).customFetch).toBe(customFetch)
  await expect(import("@tessera/express/providers")).resolves.toBeDefined()
  await expect(import("@tessera/express/adapters")).resolves.toBeDefined()
})
