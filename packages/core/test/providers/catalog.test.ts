/**
 * Every provider module: a factory whose id is its file name (but see `ID_OF_MODULE`), a row in
 * src/providers/README.md, a `verifiedEmail` (OAuth/OIDC), and a test file that
 * runs the conformance suite (every kind: OAuth/OIDC, mail APIs, SMTP, credentials, passkeys).
 */
import { readdirSync, readFileSync, existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, test } from "vitest"

const srcDir = fileURLToPath(new URL("../../src/providers/", import.meta.url))
const testDir = fileURLToPath(new URL("./", import.meta.url))
const readme = readFileSync(`${srcDir}README.md`, "utf8")
/** Modules that hold shared types and helpers, not a provider. */
const NOT_PROVIDERS = new Set(["index", "oauth", "provider-types"])
/**
 * Modules whose provider id is not their file name, as in Auth.js (whose
 * `providers/ory-hydra` makes the provider `hydra`): apps moving over keep the
 * callback URL and `AUTH_<ID>_*` variables they registered.
 */
const ID_OF_MODULE: Record<string, string> = { "ory-hydra": "hydra" }
const ids = readdirSync(srcDir)
  .filter((file) => file.endsWith(".ts"))
  .map((file) => file.slice(0, -3))
  .filter((id) => !NOT_PROVIDERS.has(id))

test("the catalog has 40+ OAuth/OIDC providers and the mail API ones", async () => {
  const types = await Promise.all(ids.map(async (id) => (await load(id)).type))
  expect(types.filter((t) => t === "oauth" || t === "oidc").length).toBeGreaterThanOrEqual(40)
  expect(ids).toEqual(
    expect.arrayContaining(["resend", "sendgrid", "postmark", "mailgun", "forwardemail", "loops"]),
  )
})

async function load(id: string): Promise<any> {
  const module = await import(`../../src/providers/${id}.ts`)
  expect(typeof module.default, `${id}: default export`).toBe("function")
  return module.default({})
}

describe.each(ids)("%s", (moduleName) => {
  test("factory, README row, verifiedEmail, conformance test", async () => {
    const provider = await load(moduleName)
    const id = ID_OF_MODULE[moduleName] ?? moduleName
    expect(provider.options?.id ?? provider.id).toBe(id)
    const row = readme.split("\n").find((line) => line.startsWith(`| \`${id}\` |`))
    expect(row, `README row for ${id}`).toBeDefined()
    expect(row).toContain(`| ${provider.type} |`)
    const source = readFileSync(`${srcDir}${moduleName}.ts`, "utf8")
    expect(source).toMatch(/^\/\*\*[\s\S]*?@module\n \*\//)
    if (provider.type === "oauth" || provider.type === "oidc") {
      expect(typeof provider.verifiedEmail, `${id}: verifiedEmail`).toBe("function")
      expect(source).toMatch(/Verified e-mail:/)
      expect(source).toMatch(/@see https:\/\//)
      expect(source).toContain(`/auth/callback/${id}`)
    }
    // Every provider runs the conformance suite (issue 10).
    const file = `${testDir}${moduleName}.test.ts`
    expect(existsSync(file), `${moduleName}.test.ts`).toBe(true)
    expect(readFileSync(file, "utf8")).toMatch(/runProviderTests(<[^>]*>)?\(/)
  })
})
