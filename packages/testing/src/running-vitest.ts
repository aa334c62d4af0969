/**
 * The Vitest API of the test file being run, for the suite entry points of the main entry
 * (`runAdapterTests`, `runProviderTests`), which must not import vitest themselves: vitest is an
 * optional peer, and the main entry loads in a server or script without it.
 * @module
 */

/** What the entry points need of Vitest: a suite whose collector may be async, a file's hook. */
export interface VitestSuiteApi {
  describe(name: string, collect: () => Promise<void>): void
  afterAll(hook: () => unknown): void
}

/**
 * An option of the provider suites, set only by the main entry's `runProviderTests`: where the
 * suite registers the stopping of its stand-in. The suite registers its hooks where it is called,
 * which from the main entry is inside the entry's own suite; its stand-in must live until the
 * end of the file, as it does when `@tessera/testing/suites` is called at a file's top level,
 * so that the file's own tests can sign in through the handle.
 */
export const standInTeardown: unique symbol = Symbol.for("tessera.testing.standInTeardown")

/** The options of a provider suite with {@link standInTeardown}. */
export interface SuiteLifetime {
  [standInTeardown]?: (stop: () => unknown) => void
}

/**
 * The vitest module of the test file being run, as Vitest publishes it on the global object
 * (`__vitest_index__`); outside Vitest an error that names `@tessera/testing/suites`.
 */
export function runningVitest(caller: string): VitestSuiteApi {
  const api = (globalThis as { __vitest_index__?: Partial<VitestSuiteApi> }).__vitest_index__
  if (typeof api?.describe !== "function") {
    throw new Error(
      `${caller} registers Vitest tests: call it in a test file run by Vitest, or import it from @tessera/testing/suites`,
    )
  }
  return api as VitestSuiteApi
}
