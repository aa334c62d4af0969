// The comparison baseline, Auth.js, installed at run time into
// bench/.baseline/authjs/ (git-ignored). Tessera never depends on it: no
// committed package.json names `@auth/*`. The versions are pinned here; the
// ones actually installed (with their own jose and oauth4webapi) are reported
// with every result.
//
// The apps the benchmarks generate live beside it, one folder per library:
// bench/.baseline/authjs/<app> resolves `@auth/*` (and its jose, oauth4webapi)
// from bench/.baseline/authjs/node_modules; bench/.baseline/tessera/<app> and
// bench/.baseline/none/<app> see only the repository's node_modules.
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

export const AUTHJS_VERSIONS = { "@auth/core": "0.41.3", "@auth/sveltekit": "1.11.3" }

export const root = fileURLToPath(new URL("../../", import.meta.url))
export const baselineDir = join(root, "bench", ".baseline", "authjs")

/** Where the generated apps of `library` ("tessera", "authjs" or "none") go. */
export const appDir = (library, name) => join(root, "bench", ".baseline", library, name)

function installedVersion(dir, name) {
  try {
    return JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")).version
  } catch {
    return undefined
  }
}

/**
 * Installs the pinned Auth.js packages into bench/.baseline/authjs/ unless they are
 * there already. `--legacy-peer-deps` keeps npm from installing a second copy
 * of `@sveltejs/kit` and `svelte` (peers of `@auth/sveltekit`): the generated
 * apps must use the repository's copies, like Tessera's.
 */
export function ensureAuthjs() {
  const wanted = Object.entries(AUTHJS_VERSIONS)
  if (wanted.some(([name, version]) => installedVersion(baselineDir, name) !== version)) {
    mkdirSync(baselineDir, { recursive: true })
    process.stderr.write(
      `Installing ${wanted.map(([n, v]) => `${n}@${v}`).join(" ")} into bench/.baseline/authjs/ ...\n`,
    )
    execFileSync(
      "npm",
      [
        "install",
        "--prefix",
        baselineDir,
        "--no-save",
        "--no-package-lock",
        "--legacy-peer-deps",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        ...wanted.map(([name, version]) => `${name}@${version}`),
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    )
  }
  return versions()
}

/** The versions in use: Tessera's dependencies and Auth.js's (when installed). */
export function versions() {
  const tesseraDeps = join(root, "packages", "core")
  const pick = (dir, names) =>
    Object.fromEntries(names.map((name) => [name, installedVersion(dir, name) ?? null]))
  const tessera = pick(root, ["jose", "oauth4webapi", "@simplewebauthn/server", "cookie"])
  tessera["@tessera/core"] = JSON.parse(
    readFileSync(join(tesseraDeps, "package.json"), "utf8"),
  ).version
  const authjs = existsSync(join(baselineDir, "node_modules"))
    ? pick(baselineDir, ["@auth/core", "@auth/sveltekit", "jose", "oauth4webapi", "preact"])
    : null
  return { tessera, authjs }
}

/** A file URL for `specifier` as a module in bench/.baseline/authjs/ would import it. */
export function resolveFromBaseline(specifier) {
  const require = createRequire(join(baselineDir, "resolve.js"))
  return pathToFileURL(require.resolve(specifier)).href
}
