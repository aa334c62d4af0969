/**
 * `runAdapterTests` from the main entry (`@tessera/testing`), where the issue and
 * Auth.js-style guides import it, without the main entry loading vitest: vitest is
 * an optional peer, and the entry must load in a server or script without it.
 *
 * Called at the top level of a test file, it registers one suite whose collector
 * loads the suite module (`./suites.js`, which imports vitest) and runs it there:
 * Vitest awaits a suite's collector before it runs the file's tests. Vitest's API
 * is the one it gives the file it is running (`__vitest_index__`); outside Vitest
 * the call throws and names `@tessera/testing/suites`.
 * @module
 */
import type { AdapterTestOptions } from "./adapter-tests.js"
import { runningVitest } from "./running-vitest.js"

/**
 * The adapter conformance suite (every Auth.js adapter method and Tessera's
 * extensions, edge cases, unique keys, cascades, the first sign-in race): call it
 * at the top level of a Vitest test file. The same suite as
 * `@tessera/testing/suites`' `runAdapterTests`.
 *
 * @param options The adapter under test and `db`, direct access to its storage.
 * @see [Auth.js: testing adapters](https://authjs.dev/guides/creating-a-database-adapter)
 */
export function runAdapterTests(options: AdapterTestOptions): void {
  runningVitest("runAdapterTests").describe("adapter conformance", async () => {
    const suites = await import("./suites.js")
    suites.runAdapterTests(options)
  })
}
