import { fileURLToPath } from "node:url"
import { configDefaults, defineConfig } from "vitest/config"

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// Tests run against the TypeScript sources of every package, so a change is
// tested without a build. Subpath `@tessera/core/<x>` maps to `src/<x>.ts`.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@tessera\/core$/, replacement: src("./packages/core/src/index.ts") },
      // Entry points that are folders: `@tessera/core/<x>` maps to `src/<x>/index.ts`.
      {
        find: /^@tessera\/core\/(password|rate-limit|providers)$/,
        replacement: src("./packages/core/src/$1/index.ts"),
      },
      { find: /^@tessera\/core\/(.*)$/, replacement: src("./packages/core/src/$1.ts") },
      { find: /^@tessera\/testing$/, replacement: src("./packages/testing/src/index.ts") },
      { find: /^@tessera\/testing\/(.*)$/, replacement: src("./packages/testing/src/$1.ts") },
      { find: /^@tessera\/sql$/, replacement: src("./packages/sql/src/index.ts") },
      { find: /^@tessera\/redis$/, replacement: src("./packages/redis/src/index.ts") },
      // SvelteKit's `$app/paths` (the client reads `base`), outside SvelteKit.
      {
        find: /^\$app\/paths$/,
        replacement: src("./packages/sveltekit/test/helpers/app-paths.ts"),
      },
    ],
  },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "examples/test/**/*.test.ts",
      "scripts/test/**/*.test.ts",
      "bench/**/*.test.mjs",
    ],
    // bench/.baseline/ holds Auth.js and the apps the benchmarks generate.
    exclude: [...configDefaults.exclude, "bench/.baseline/**"],
    // Type tests (`*.test-d.ts`): type-checked by tsc against the built declarations, not run.
    typecheck: {
      enabled: true,
      include: ["packages/*/test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.typetests.json",
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A browser test polls for what a page shows or sent; on a loaded CI machine
    // one second (vitest's default) is not always enough for Chromium to get there.
    expect: { poll: { timeout: 10_000 } },
  },
})
