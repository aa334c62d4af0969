/**
 * The built package's entry points as an Auth.js SvelteKit app imports them once
 * `@auth/` reads `@tessera/`: `@tessera/sveltekit/providers/<id>` (Auth.js's docs
 * import every provider that way), `/providers`, `/adapters`, and `customFetch`
 * from the main entry. Each provider must be core's own factory, not a copy.
 */
import { readdirSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { customFetch } from "@tessera/core"

const providerIds = readdirSync(new URL("../../core/src/providers/", import.meta.url))
  .filter((file) => file.endsWith(".ts") && file !== "index.ts")
  .map((file) => file.slice(0, -3))

describe("@tessera/sveltekit entry points (the built package)", () => {
  it.each(providerIds)(
    "providers/%s: the exports of core's module, the same objects",
    async (id) => {
      const fromKit = await import(`@tessera/sveltekit/providers/${id}`)
      const fromCore = await import(`@tessera/core/providers/${id}`)
      expect(Object.keys(fromKit).sort()).toEqual(Object.keys(fromCore).sort())
      for (const key of Object.keys(fromCore)) expect(fromKit[key]).toBe(fromCore[key])
    },
  )

  it("GitHub from /providers/github is a factory an Auth.js app calls as before", async () => {
    const { default: GitHub } = await import("@tessera/sveltekit/providers/github")
    expect(GitHub({ clientId: "id", clientSecret: "secret" })).toMatchObject({
      id: "github",
      type: "oauth",
    })
  })

  it("/providers, /adapters and customFetch resolve", async () => {
    await expect(import("@tessera/sveltekit/providers")).resolves.toBeDefined()
    await expect(import("@tessera/sveltekit/adapters")).resolves.toBeDefined()
    expect((await import("@tessera/sveltekit")).customFetch).toBe(customFetch)
  })
})
