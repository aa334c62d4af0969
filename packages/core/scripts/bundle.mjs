#!/usr/bin/env node
/**
 * Builds the JavaScript of @tessera/core: each public entry point of
 * `package.json`'s `exports` becomes `dist/<entry>.js`, and what they share is
 * bundled into a few chunks (`dist/chunks/`), with source maps into `src/`.
 * `tsc -b` writes only the declarations (`emitDeclarationOnly`).
 *
 * Why bundle a library: Node's ESM loader pays for every module it resolves,
 * reads, compiles and links (about 0.5 ms each on a small server), so a cold
 * start that imported 60 of the core's modules one by one spent more time
 * loading them than checking the session. Bundled, a session check loads the
 * entry, one `core` chunk and the small part of each configured flow that
 * resolving a configuration needs:
 *
 * - `core`: everything a request may touch (handler, config, http, session,
 *   jwt, errors, the provider helpers, the HTML helpers of the page sections);
 * - `pages`: the built-in pages and their English strings, loaded with the
 *   first page shown (a session check never loads them), and by the e-mail
 *   provider factories (the sign-in message);
 * - `<flow>` (oauth, email): the normalizer and the page section, loaded
 *   (dynamic `import()`) when a configuration with that provider type is
 *   resolved; the credentials flow's (1.4 KB) is in `core` (`flows/index.ts`);
 * - `<flow>-steps` and `sign-in`: the sign-in steps, loaded on the first sign-in;
 * - `webauthn`: the passkey flow, reachable only from the WebAuthn and Passkey
 *   factories (and `webauthn-client`, the page's script, whose CSP hash the
 *   factory's module exports); `password`: its own entry point;
 * - `two-factor-settings`: the second factor's settings and the light part of
 *   its step, loaded when a configuration whose adapter can store second
 *   factors is resolved; `two-factor` (and `two-factor-qr`): its actions and
 *   steps (TOTP, recovery codes, QR codes), loaded on first use;
 *   `authjs`: adopting an Auth.js session cookie (its `A256CBC-HS512`), loaded
 *   when one shows up;
 * - `session-records`: session records and the database session strategy,
 *   loaded when a configuration with database sessions is resolved or a JWT
 *   session with a record starts: a JWT app without an adapter never loads it.
 *
 * Dependencies (jose, jose/errors, oauth4webapi, @simplewebauthn/server) stay
 * external: the app's package manager and bundler own them. Nothing here
 * changes what the code does: rollup links the same modules tsc type-checked,
 * each stripped of its types by esbuild, as `tsc` would emit it.
 *
 *   node packages/core/scripts/bundle.mjs     (npm run build runs it after tsc -b)
 */
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { transform } from "esbuild"
import { rollup } from "rollup"

const coreDir = join(dirname(fileURLToPath(import.meta.url)), "..")
const src = join(coreDir, "src")
const dist = join(coreDir, "dist")

/** `exports` of package.json -> { "<dist path without .js>": "<src .ts file>" }. */
export function entryPoints() {
  const { exports } = JSON.parse(readFileSync(join(coreDir, "package.json"), "utf8"))
  const input = {}
  for (const target of Object.values(exports)) {
    const file = typeof target === "object" ? target.default : undefined
    if (typeof file !== "string" || !file.startsWith("./dist/")) continue
    const name = file.slice("./dist/".length, -".js".length)
    if (name.includes("*")) {
      const [folder, rest] = name.split("*")
      for (const entry of readdirSync(join(src, folder))) {
        if (!entry.endsWith(".ts") || rest !== "") continue
        input[`${folder}${entry.slice(0, -3)}`] = join(src, folder, entry)
      }
    } else {
      input[name] = join(src, `${name}.ts`)
    }
  }
  return input
}

/** The modules of the `pages` chunk (the helpers the flows' page sections use stay in `core`). */
const PAGES = new Set([
  "actions/pages.ts",
  "flows/email/message.ts",
  ...[
    "layout",
    "error",
    "signin",
    "signout",
    "verify-request",
    "confirm-link",
    "messages",
    "code-error",
  ].map((name) => `pages/${name}.ts`),
  "pages/page-context.ts",
  "pages/pending-script.ts",
  "pages/i18n/catalogs.ts",
  "pages/i18n/translator.ts",
  "pages/i18n/negotiate.ts",
  "pages/i18n/locales/en.ts",
])

/** The chunk a module that is not an entry point belongs to (see the module comment). */
function chunkOf(id) {
  const path = relative(src, id).replaceAll("\\", "/")
  // Imported by provider factories, so loaded with the core when such a provider is.
  if (path === "flows/oauth/provider-options.ts") return "core"
  // The built-in pages and their English strings: loaded (import() in routes.ts and handler.ts)
  // with the first page a browser asks for, not by a session check; statically by the e-mail
  // provider factories, whose message is written in those strings.
  if (PAGES.has(path)) return "pages"
  // The script's CSP hash is exported by the WebAuthn factory: the flow must not come with it.
  if (path === "flows/webauthn/client-script.generated.ts") return "webauthn-client"
  // The flow itself: a chunk of its own, which only the factory's import() loads.
  if (path.startsWith("flows/webauthn/")) return undefined
  // The pages' languages: each catalog loads when a page is shown in it (pages/i18n/catalogs.ts),
  // English (the fallback, imported statically) with the pages; the checks of
  // theme.locale/locales/messages when a configuration sets them.
  const locale = /^pages\/i18n\/locales\/([\w-]+)\.ts$/.exec(path)
  if (locale && locale[1] !== "en") return `locale-${locale[1]}`
  if (path === "pages/i18n/settings.ts") return "i18n-settings"
  // Back-channel logout verifies logout tokens (jose, the OAuth modules): loaded on first use,
  // apart from the sign-in steps, which need no jose.
  if (path === "actions/backchannel-logout.ts" || path === "flows/oauth/backchannel-logout.ts")
    return "backchannel-logout"
  // Signing out and the sessions routes: with the first request for one (routes.ts).
  if (path === "actions/signout.ts" || path === "actions/sessions.ts") return "session-actions"
  // The recent-sign-in policy: with the first request that adds a sign-in method (handler.ts).
  if (path === "session/recent-sign-in.ts") return "recent-sign-in"
  // Adopting an Auth.js cookie (reading its A256CBC-HS512): only when such a cookie shows up.
  if (
    path === "jwt/authjs.ts" ||
    path === "jwt/cbc-hmac.ts" ||
    path === "session/authjs-adoption.ts" ||
    path === "session/authjs-record.ts"
  )
    return "authjs"
  // Sessions with records: the records, the database strategy (whose sessions always have
  // one) and a sign-in waiting for its second factor (a record too). Loaded when a
  // configuration with database sessions is resolved, or with the first sign-in or session
  // route that keeps a record: a JWT app without an adapter never loads them.
  if (
    /^session\/(records|client-info|database)\.ts$/.test(path) ||
    path === "two-factor/pending.ts"
  )
    return "session-records"
  // What resolving a configuration with second factors needs (the settings, the step's light
  // flow): not the steps, whose TOTP code, sign-in steps and pages load on first use.
  if (/^two-factor\/(config|flow|page-url)\.ts$/.test(path)) return "two-factor-settings"
  // Two-factor setup and its second step (TOTP, recovery codes, QR codes): on first use.
  if (path === "two-factor/qr.ts") return "two-factor-qr"
  if (
    path === "actions/two-factor.ts" ||
    path === "pages/two-factor.ts" ||
    /^two-factor\/(complete|verify|totp|recovery|secret-box)\.ts$/.test(path)
  )
    return "two-factor"
  // Shared by the sign-in steps, the e-mail flow and the rate-limit policies: the address rule
  // and the second-factor gate at the end of a sign-in. (Its pending cookie is the core's:
  // signing out clears it.)
  if (
    path.startsWith("flows/sign-in/") ||
    path === "flows/email/address.ts" ||
    path === "two-factor/gate.ts"
  )
    return "sign-in"
  const flow = /^flows\/(oauth|email|credentials)\/(.*)\.ts$/.exec(path)
  if (flow && ["index", "normalize", "section"].includes(flow[2]))
    return flow[1] === "credentials" ? "core" : flow[1]
  if (flow) return `${flow[1]}-steps`
  if (path.startsWith("password/")) return "password"
  // Rate limits: the option is resolved with the core (config, rules); the policies, the
  // limiter and the memory store load with the first request a limit applies to.
  if (/^rate-limit\/(policies|client-ip|limiter|memory-store)\.ts$/.test(path)) return "rate-limit"
  return "core"
}

/** TypeScript sources through esbuild's type stripping, with tsc's import semantics. */
const typescript = {
  name: "typescript",
  resolveId(source, importer) {
    if (!importer || !source.startsWith(".") || !source.endsWith(".js")) return null
    const candidate = resolve(dirname(importer), `${source.slice(0, -3)}.ts`)
    return existsSync(candidate) ? candidate : null
  },
  async transform(code, id) {
    if (!id.endsWith(".ts")) return null
    const result = await transform(code, {
      loader: "ts",
      format: "esm",
      target: "es2022",
      sourcemap: true,
      sourcefile: id,
      tsconfigRaw: {
        compilerOptions: { useDefineForClassFields: true, verbatimModuleSyntax: true },
      },
    })
    return { code: result.code, map: result.map }
  },
}

/** Removes the JavaScript of an earlier build (declarations stay: tsc -b owns them). */
function cleanJavaScript(dir) {
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) cleanJavaScript(path)
    else if (/\.js(\.map)?$/.test(entry)) rmSync(path)
  }
}

export async function bundleCore() {
  const input = entryPoints()
  const entries = new Set(Object.values(input))
  const bundle = await rollup({
    input,
    plugins: [typescript],
    // Packages and Node built-ins are the app's to resolve.
    external: (id) => !id.startsWith(".") && !id.startsWith("/") && !/^[A-Za-z]:/.test(id),
    treeshake: { moduleSideEffects: false },
    onwarn(warning, warn) {
      // Type-only entry points (`types`, `providers`) are empty modules: expected.
      if (warning.code === "EMPTY_BUNDLE") return
      warn(warning)
    },
  })
  cleanJavaScript(dist)
  const { output } = await bundle.write({
    dir: dist,
    format: "es",
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
    manualChunks: (id) => (entries.has(id) || !id.startsWith(src) ? undefined : chunkOf(id)),
    hoistTransitiveImports: false,
    sourcemap: true,
  })
  await bundle.close()
  return output
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const output = await bundleCore()
  const chunks = output.filter((file) => file.type === "chunk")
  console.log(
    `@tessera/core: ${chunks.filter((c) => c.isEntry).length} entry points, ` +
      `${chunks.filter((c) => !c.isEntry).length} chunks in dist/`,
  )
}
