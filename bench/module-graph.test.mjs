// What a cold start of the minimal app (`Auth()` with Credentials and GitHub,
// bench/lib/apps.mjs) loads from the built @tessera/core, step by step, in a
// fresh process (bench/lib/split-child.mjs under bench/lib/load-recorder.mjs):
//
// - importing it loads the entry points and the `core` chunk, nothing of a
//   flow, and calls nothing of Node's at import (no `process.getBuiltinModule`);
// - the first session check adds the light part of the configured flows
//   (OAuth; the credentials flow's is in the core chunk), never the built-in
//   pages (and their strings), oauth4webapi nor anything of passkeys;
// - an OAuth sign-in adds the OAuth steps and oauth4webapi, still no passkeys.
//
// A Credentials-only app (no OAuth, e-mail or passkey provider): import, a session check and a
// credentials sign-in load the credentials flow and nothing of the others (oauth4webapi, the
// e-mail steps, nodemailer, @simplewebauthn).
//
// And the minimal app with a database (`@tessera/sql` on SQLite: database sessions, session
// records, second factors on): its first session check adds the settings of second factors
// and the session records, not the two-factor steps (TOTP, @oslojs), the sign-in steps nor the
// built-in pages.
//
// `npm test` builds first; this reads packages/core/dist as published.
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, expect, test } from "vitest"
import { jwtSessionCookie, minimalAppSource } from "./lib/apps.mjs"
import { appDir } from "./lib/baseline.mjs"

// Inside the repository, so the app resolves `@tessera/core` through its node_modules; the
// folder is not in a fresh clone (bench/.baseline/ is ignored).
const parent = appDir("tessera", "")
mkdirSync(parent, { recursive: true })
const dir = mkdtempSync(join(parent, "module-graph-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The app, importing `@tessera/core` as an installed package, with a spy on getBuiltinModule. */
function app() {
  const file = join(dir, "app.mjs")
  writeFileSync(
    join(dir, "spy.mjs"),
    `const original = process.getBuiltinModule
globalThis.builtinsAtImport = []
process.getBuiltinModule = (id) => (globalThis.builtinsAtImport?.push(id), original(id))
`,
  )
  writeFileSync(
    file,
    `import "./spy.mjs"
${minimalAppSource("tessera")}
if (globalThis.builtinsAtImport.length)
  throw new Error("getBuiltinModule called at import: " + globalThis.builtinsAtImport.join(", "))
delete globalThis.builtinsAtImport
`,
  )
  return pathToFileURL(file).href
}

/** Files loaded in each step, as paths relative to the repository (packages as `<name>`). */
async function stepsOf(url) {
  const log = join(dir, "loads.log")
  writeFileSync(log, "")
  const child = spawnSync(
    process.execPath,
    [
      "--import",
      new URL("./lib/load-recorder.mjs", import.meta.url).href,
      fileURLToPath(new URL("./lib/split-child.mjs", import.meta.url)),
      url,
    ],
    {
      encoding: "utf8",
      env: { ...process.env, BENCH_LOAD_LOG: log, BENCH_COOKIE: await jwtSessionCookie("tessera") },
    },
  )
  expect(child.status, child.stderr).toBe(0)
  const steps = { import: [] }
  let step = "import"
  for (const line of readFileSync(log, "utf8").split("\n").filter(Boolean)) {
    if (line.startsWith("# ")) steps[(step = line.slice(2))] = []
    else {
      const path = fileURLToPath(line)
      const modules = path.lastIndexOf("/node_modules/")
      const core = path.indexOf("/packages/core/")
      // The benchmark's own files and the generated app are not what is checked.
      if (modules !== -1) steps[step].push(path.slice(modules + "/node_modules/".length))
      else if (core !== -1) steps[step].push(path.slice(core + 1))
    }
  }
  return steps
}

/** The core's files in `files`, without rollup's content hash (`chunks/oauth-Bx3kLq9a.js` -> `chunks/oauth.js`). */
const core = (files) =>
  files
    .filter((file) => file.startsWith("packages/core/"))
    .map((file) => file.replace(/-[\w-]{8}\.js$/, ".js"))
const packages = (files) => files.filter((file) => !file.startsWith("packages/"))

test("a cold start loads the core in a few files, and each flow only when it is used", async () => {
  const steps = await stepsOf(app())
  expect(core(steps.import).sort()).toEqual([
    "packages/core/dist/chunks/core.js",
    "packages/core/dist/index.js",
    "packages/core/dist/providers/credentials.js",
    "packages/core/dist/providers/github.js",
  ])
  // Not even jose's error classes: they load when a token fails (jwt/jose-errors.ts).
  expect(packages(steps.import)).toEqual([])
  // The credentials flow's light part is in the core chunk (flows/index.ts).
  expect(core(steps["session check"]).sort()).toEqual(["packages/core/dist/chunks/oauth.js"])
  expect(packages(steps["session check"])).toEqual([])
  const signIn = steps["OAuth sign-in"]
  expect(packages(signIn)).toEqual(["oauth4webapi/build/index.js"])
  expect(core(signIn)).toContain("packages/core/dist/chunks/oauth-steps.js")
  const everything = Object.values(steps).flat()
  expect(everything.filter((file) => /simplewebauthn|webauthn|asn1|peculiar/.test(file))).toEqual(
    [],
  )
})

test("an app with a database loads the second factors' settings at its first check, not their steps", async () => {
  const file = join(dir, "adapter-app.mjs")
  writeFileSync(
    file,
    `import { Auth } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import GitHub from "@tessera/core/providers/github"
import { SqlAdapter } from "@tessera/sql"
import { mark } from ${JSON.stringify(new URL("./lib/load-recorder.mjs", import.meta.url).href)}
const adapter = SqlAdapter.sqlite(${JSON.stringify(join(dir, "adapter-app.db"))})
await adapter.migrate()
const config = {
  secret: "bench-secret-bench-secret-bench-secret-0123456789",
  trustHost: true,
  adapter,
  providers: [GitHub({ clientId: "id", clientSecret: "secret" }), Credentials({ authorize: () => null })],
}
mark("session check")
const response = await Auth(new Request("http://localhost:3000/auth/session"), config)
if (response.status !== 200 || (await response.json()) !== null) throw new Error("session check failed")
mark("end")
`,
  )
  const log = join(dir, "adapter-loads.log")
  writeFileSync(log, "")
  const child = spawnSync(
    process.execPath,
    ["--import", new URL("./lib/load-recorder.mjs", import.meta.url).href, file],
    { encoding: "utf8", env: { ...process.env, BENCH_LOAD_LOG: log } },
  )
  expect(child.status, child.stderr).toBe(0)
  const lines = readFileSync(log, "utf8").split("\n")
  const check = lines.slice(lines.indexOf("# session check") + 1, lines.indexOf("# end"))
  const files = check.map((line) => fileURLToPath(line))
  expect(core(files.map((path) => path.slice(path.indexOf("/packages/core/") + 1))).sort()).toEqual(
    [
      "packages/core/dist/chunks/oauth.js",
      "packages/core/dist/chunks/session-records.js",
      "packages/core/dist/chunks/two-factor-settings.js",
    ],
  )
  expect(files.filter((path) => path.includes("/node_modules/"))).toEqual([])
})

test("a Credentials-only app loads no other flow: import, a session check, a credentials sign-in", async () => {
  const file = join(dir, "credentials-app.mjs")
  writeFileSync(
    file,
    `import { Auth } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { mark } from ${JSON.stringify(new URL("./lib/load-recorder.mjs", import.meta.url).href)}
const origin = "http://localhost:3000"
const config = {
  secret: "bench-secret-bench-secret-bench-secret-0123456789",
  url: origin,
  providers: [
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: (c) => (c.username === "ada" && c.password === "pw" ? { id: "1", name: "Ada" } : null),
    }),
  ],
}
mark("session check")
const check = await Auth(new Request(origin + "/auth/session"), config)
if (check.status !== 200 || (await check.json()) !== null) throw new Error("session check failed")
mark("credentials sign-in")
const csrf = await Auth(new Request(origin + "/auth/csrf"), config)
const { csrfToken } = await csrf.json()
const cookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
const signIn = await Auth(
  new Request(origin + "/auth/callback/credentials", {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, username: "ada", password: "pw" }),
  }),
  config,
)
if (signIn.status !== 302 || !signIn.headers.getSetCookie().some((c) => c.startsWith("tessera.session-token=")))
  throw new Error("credentials sign-in failed: " + signIn.status)
mark("end")
`,
  )
  const log = join(dir, "credentials-loads.log")
  writeFileSync(log, "")
  const child = spawnSync(
    process.execPath,
    ["--import", new URL("./lib/load-recorder.mjs", import.meta.url).href, file],
    { encoding: "utf8", env: { ...process.env, BENCH_LOAD_LOG: log } },
  )
  expect(child.status, child.stderr).toBe(0)
  const loaded = readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.startsWith("file:"))
    .map((line) => fileURLToPath(line))
    // The app itself is not what is checked.
    .filter((path) => path.includes("/node_modules/") || path.includes("/packages/core/"))
    .map((path) =>
      path.includes("/node_modules/")
        ? path.slice(path.lastIndexOf("/node_modules/") + "/node_modules/".length)
        : path.slice(path.indexOf("/packages/core/") + 1),
    )
  // The credentials flow was loaded and used...
  expect(core(loaded)).toContain("packages/core/dist/chunks/credentials-steps.js")
  // ...and nothing of the OAuth, e-mail or passkey flows, nor what only they need.
  expect(
    loaded.filter((file) =>
      /oauth|email|webauthn|passkey|nodemailer|simplewebauthn|asn1|peculiar/.test(file),
    ),
  ).toEqual([])
  expect(packages(loaded)).toEqual([])
})
