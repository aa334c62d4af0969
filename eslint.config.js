// ESLint for the whole repository (flat config). Formatting is Prettier's job; these rules
// are the ones that catch bugs: promises nobody awaits, type-only imports that would be
// loaded at run time, `==`, unused code, and `any` (a warning: each one is a hole in the types).
//
// Type-aware rules run on the packages' sources (the project service reuses their tsconfigs)
// and, for the promise rules, on the tests (tsconfig.tests.json); scripts and the demo's
// sources get the syntactic rules.
import js from "@eslint/js"
import globals from "globals"
import svelte from "eslint-plugin-svelte"
import tseslint from "typescript-eslint"

const typedSources = ["packages/*/src/**/*.ts"]

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/",
      "**/dist/",
      "**/build/",
      "**/.svelte-kit/",
      "**/coverage/",
      "bench/results/",
      "packages/core/src/flows/webauthn/client-script.generated.ts",
      "packages/core/src/flows/webauthn/browser-client.js",
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: { globals: { ...globals.node } },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs["flat/recommended"],
  {
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      // Control characters in this code's patterns are deliberate: they refuse header injection.
      "no-control-regex": "off",
      // An empty catch here always follows a default set before the try (best effort).
      "no-empty": ["error", { allowEmptyCatch: true }],
      // A `let` assigned once but read first by a closure (a server handler) stays a `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      "no-throw-literal": "error",
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-constant-binary-expression": "error",
      "@typescript-eslint/no-explicit-any": "warn",
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          args: "after-used",
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrors: "none",
          ignoreRestSiblings: true,
        },
      ],
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
      "@typescript-eslint/no-import-type-side-effects": "error",
      // Function overloads and declaration merging (module augmentation) are part of the API.
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "always" }],
    },
  },
  {
    files: typedSources,
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": [
        "error",
        { checksVoidReturn: { arguments: false } },
      ],
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true },
      ],
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/prefer-promise-reject-errors": "error",
    },
  },
  {
    // Tests: the promise rules (an un-awaited `expect(...).rejects` is a test that cannot fail).
    files: [
      "packages/*/test/**/*.ts",
      "examples/test/**/*.ts",
      "apps/demo/test/**/*.ts",
      "scripts/test/**/*.ts",
    ],
    ignores: ["**/*.test-d.ts"],
    languageOptions: {
      parserOptions: { project: ["./tsconfig.tests.json"], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": [
        "error",
        { checksVoidReturn: { arguments: false } },
      ],
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    files: ["**/*.svelte", "**/*.svelte.ts"],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: [".svelte"] },
      globals: { ...globals.browser },
    },
    rules: {
      // `let { data } = $props()` is how Svelte 5 declares props; svelte/prefer-const knows that.
      "prefer-const": "off",
      "svelte/prefer-const": "error",
      // `$$Props` types a component for the Svelte 4 tooling; nothing references it by name.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^(_|\\$\\$)", caughtErrors: "none" },
      ],
    },
  },
  {
    // The demo has no `paths.base`: its plain `href="/account"` links are the resolved ones.
    files: ["apps/demo/**/*.svelte"],
    rules: { "svelte/no-navigation-without-resolve": "off" },
  },
  {
    files: ["packages/sveltekit/src/client.ts", "packages/core/src/flows/webauthn/**/*.js"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests reach into results with `as any` on purpose; a warning there is noise.
    files: ["**/test/**", "**/*.test.ts", "**/*.test-d.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
)
