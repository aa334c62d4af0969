// The bundle-size budget: the minimal app (`Auth()` with Credentials and
// GitHub) bundled by esbuild into one minified ESM file (bench/lib/bundle.mjs,
// the same build bench/bundle-size.mjs compares with Auth.js) must stay within
// bench/budget.json. It bundles the built package (packages/core/dist, as
// published; `npm test` builds first) and needs no Auth.js install.
import { readFileSync } from "node:fs"
import { expect, test } from "vitest"
import { singleFileBundle } from "./lib/bundle.mjs"

const budget = JSON.parse(readFileSync(new URL("./budget.json", import.meta.url), "utf8"))

test("the minimal app's bundle stays within bench/budget.json", async () => {
  const { minified, gzip, byPackage } = await singleFileBundle("tessera")
  const report = `${minified} bytes minified, ${gzip} gzip; budget ${budget.minimalApp.minified} / ${budget.minimalApp.gzip}; largest: ${byPackage
    .slice(0, 5)
    .map((entry) => `${entry.package} ${entry.bytes}`)
    .join(", ")}`
  expect(minified, report).toBeLessThanOrEqual(budget.minimalApp.minified)
  expect(gzip, report).toBeLessThanOrEqual(budget.minimalApp.gzip)
})

test("an app without a passkey provider bundles nothing of the passkey stack", async () => {
  const { byPackage, modules } = await singleFileBundle("tessera")
  const names = byPackage.map((entry) => entry.package)
  expect(names.filter((name) => /simplewebauthn|asn1|peculiar|tsyringe|cbor/.test(name))).toEqual(
    [],
  )
  expect(names).not.toContain("cookie")
  // jose (verifying back-channel logout tokens), uqr and @oslojs (two-factor setup) are in the
  // single file, behind dynamic imports: bench/module-graph.test.mjs checks that neither a cold
  // start nor a sign-in loads them (nor jose's errors, which load when a token fails).
  expect(modules).toBeGreaterThan(0)
})
