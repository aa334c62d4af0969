// The apps the benchmarks compare, generated as source text for either library
// from one template, so that both get the same configuration: a secret, trusted
// hosts, a Credentials provider and GitHub (nothing else: no passkeys, no
// e-mail, no adapter unless database sessions are asked for).
//
// - minimalAppSource: `Auth()` behind a `fetch` export (cold start, bundle size);
// - kitAppFiles: a SvelteKit app (adapter-node) with one page whose root layout
//   returns `{ session: await locals.auth() }`, or the same session as a constant.
//
// Session cookies are made by each library's own `encode` (salt = cookie name).
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { resolveFromBaseline, root } from "./baseline.mjs"

export const LIBRARIES = {
  tessera: {
    label: "Tessera",
    core: "@tessera/core",
    sveltekit: "@tessera/sveltekit",
    cookieName: "tessera.session-token",
    jwtModule: () => pathToFileURL(join(root, "packages/core/dist/jwt.js")).href,
  },
  authjs: {
    label: "Auth.js",
    core: "@auth/core",
    sveltekit: "@auth/sveltekit",
    cookieName: "authjs.session-token",
    jwtModule: () => resolveFromBaseline("@auth/core/jwt"),
  },
}

export const SECRET = "bench-secret-bench-secret-bench-secret-0123456789"

/** The signed-in user, as both libraries' default `jwt` callback stores it. */
export const TOKEN = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  picture: null,
  sub: "7d3c1a2e-5f0b-4c8e-9a41-2b6f3e8d9c10",
}

/** `name=value` of a valid JWT session cookie, encoded by the library itself. */
export async function jwtSessionCookie(library) {
  const { cookieName, jwtModule } = LIBRARIES[library]
  const { encode } = await import(jwtModule())
  const value = await encode({ token: TOKEN, secret: SECRET, salt: cookieName })
  return `${cookieName}=${value}`
}

/** The imports and the configuration object literal, identical for both libraries. */
function configParts(pkg, { database = false } = {}) {
  const imports = [
    `import Credentials from "${pkg}/providers/credentials"`,
    `import GitHub from "${pkg}/providers/github"`,
  ]
  // Database sessions use Tessera's SQL adapter for both libraries (it implements
  // the Auth.js adapter interface; each library hashes or not before calling it).
  if (database) imports.push(`import { SqlAdapter } from "@tessera/sql"`)
  const config = `{
  secret: ${JSON.stringify(SECRET)},
  trustHost: true,${
    database
      ? `
  adapter: SqlAdapter.sqlite(process.env.BENCH_DATABASE),
  session: { strategy: "database" },`
      : ""
  }
  providers: [
    Credentials({
      credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
      authorize: ({ username, password }) =>
        username === "ada" && password === "lovelace"
          ? { id: "1", name: "Ada Lovelace", email: "ada@example.com" }
          : null,
    }),
    GitHub({ clientId: "bench-github-id", clientSecret: "bench-github-secret" }),
  ],
}`
  return { imports, config }
}

/** A minimal app: `Auth()` with Credentials and GitHub, as a `fetch` handler. */
export function minimalAppSource(library) {
  const pkg = LIBRARIES[library].core
  const { imports, config } = configParts(pkg)
  return `import { Auth } from "${pkg}"
${imports.join("\n")}

export const config = ${config.replace("trustHost: true,", `trustHost: true,\n  basePath: "/auth",`)}

export default { fetch: (request) => Auth(request, config) }
`
}

/**
 * The files of one SvelteKit app.
 * - library: "tessera" | "authjs" | null (null: no auth library at all, no hook);
 * - variant: "auth" (the layout calls `locals.auth()`) or "constant" (the layout
 *   returns `session`, a constant; the library's hook still runs);
 * - database: database sessions on SQLite (`BENCH_DATABASE`) instead of JWT.
 */
export function kitAppFiles({ library, variant, database = false, session = null }) {
  // Listing the packages lets Vite keep the cores external (loaded from
  // node_modules at run time, as an installed package would be) and compile
  // the SvelteKit integrations with the app. (Generated into the git-ignored
  // bench/.baseline/, never committed.)
  const dependencies = Object.fromEntries(
    [
      ...(library ? [LIBRARIES[library].core, LIBRARIES[library].sveltekit] : []),
      ...(database ? ["@tessera/sql"] : []),
    ].map((name) => [name, "*"]),
  )
  const packageJson = { name: "bench-kit-app", private: true, type: "module", dependencies }
  const files = {
    "package.json": `${JSON.stringify(packageJson, null, 2)}\n`,
    "svelte.config.js": `import adapter from "@sveltejs/adapter-node"
export default { kit: { adapter: adapter({ out: "build" }) } }
`,
    "vite.config.js": `import { sveltekit } from "@sveltejs/kit/vite"
export default {
  logLevel: "warn",
  plugins: [sveltekit()],
  // Workspace packages (symlinks) would otherwise be bundled into the app.
  ssr: { external: ["@tessera/core", "@tessera/sql"] },
}
`,
    "src/app.html": `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" />%sveltekit.head%</head>
  <body><div style="display: contents">%sveltekit.body%</div></body>
</html>
`,
    "src/routes/+page.svelte": `<script>
  let { data } = $props()
</script>

<h1>{data.session?.user?.name ?? "Not signed in"}</h1>
<p>{data.session?.user?.email ?? ""}</p>
<p>Session until {data.session?.expires ?? "-"}</p>
`,
    "src/routes/+layout.server.js":
      variant === "auth"
        ? `export const load = async ({ locals }) => ({ session: await locals.auth() })
`
        : `const session = ${JSON.stringify(session)}

export const load = async () => ({ session })
`,
    // Serves build/handler.js on a free loopback port (ORIGIN is set before the
    // handler is imported: adapter-node reads it then). With BENCH_PROFILE set,
    // GET /__bench/profile/start and /stop record a CPU profile of what runs
    // in between into that file; without it, every request goes to the app.
    "server.js": `import { writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { Session } from "node:inspector"

let app
let profiler
const post = (method, params) =>
  new Promise((resolve, reject) =>
    profiler.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  )
async function control(req, res) {
  if (req.url === "/__bench/profile/start") {
    profiler = new Session()
    profiler.connect()
    await post("Profiler.enable")
    await post("Profiler.setSamplingInterval", { interval: 500 })
    await post("Profiler.start")
  } else if (req.url === "/__bench/profile/stop") {
    const { profile } = await post("Profiler.stop")
    writeFileSync(process.env.BENCH_PROFILE, JSON.stringify(profile))
    profiler.disconnect()
  }
  res.end("ok")
}
const handle = process.env.BENCH_PROFILE
  ? (req, res) => (req.url.startsWith("/__bench/") ? control(req, res) : app(req, res))
  : (req, res) => app(req, res)

const server = createServer(handle)
server.listen(0, "127.0.0.1", async () => {
  const { port } = server.address()
  process.env.ORIGIN = \`http://127.0.0.1:\${port}\`
  ;({ handler: app } = await import("./build/handler.js"))
  console.log(\`ready \${process.env.ORIGIN}\`)
})
process.on("SIGTERM", () => process.exit(0))
`,
  }
  if (library) {
    const { sveltekit, core } = LIBRARIES[library]
    const { imports, config } = configParts(core, { database })
    files["src/auth.js"] = `import { SvelteKitAuth } from "${sveltekit}"
${imports.join("\n")}

export const { handle } = SvelteKitAuth(${config})
`
    files["src/hooks.server.js"] = `export { handle } from "./auth.js"\n`
  }
  return files
}

/** Writes `files` into `dir`, replacing what was there. */
export function writeFiles(dir, files) {
  rmSync(dir, { recursive: true, force: true })
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
}
