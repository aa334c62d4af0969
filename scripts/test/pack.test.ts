/**
 * The packages as a user gets them before they are on the registry: `npm run pack` writes the
 * tarballs, npm installs them into fresh projects outside the repository, and they work there.
 *
 * - @tessera/core alone: `npx tessera secret` runs core's command (never a registry package of
 *   that name), `tessera migrate` says it needs @tessera/sql, and a tiny app signs in.
 * - The README's Node.js quick starts, installed with the README's install lines (the path to
 *   the tarballs is the only change) and run with its run lines (the port too: 3000 may be
 *   taken here), sign in over HTTP.
 * - @tessera/core beside @tessera/sql: the two bins do not clash, and `tessera migrate` runs
 *   @tessera/sql's migrations against a real PostgreSQL.
 * - The install lines of the packages' READMEs and docs/testing.md work in an empty project.
 *
 * Dependencies come from the registry (or npm's cache). @tessera/sql is installed with
 * `--ignore-scripts`: better-sqlite3 would compile from source where its prebuilt binary
 * cannot be downloaded (minutes); the tests here use PostgreSQL, which needs no native code.
 */
import { spawn } from "node:child_process"
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { HttpBrowser, startPostgres } from "@tessera/testing"

const root = fileURLToPath(new URL("../../", import.meta.url))
const work = mkdtempSync(join(tmpdir(), "tessera-pack-"))
const packs = join(work, "packs")
const version = (
  JSON.parse(readFileSync(join(root, "packages/core/package.json"), "utf8")) as {
    version: string
  }
).version
const tarball = (name: string) => join(packs, `tessera-${name}-${version}.tgz`)

/** The environment of a shell in a project: none of the variables `npm test` set for the repository. */
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) =>
      !/^(npm_config_local_prefix|npm_package_|npm_lifecycle_|INIT_CWD$|AUTH_|DATABASE_URL$)/.test(
        key,
      ),
  ),
) as Record<string, string>

interface Result {
  code: number | null
  out: string
  err: string
}

/** Runs a shell command line in `cwd`; resolves when it ends. */
function sh(command: string, cwd: string, timeout = 240_000): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], { cwd, env: cleanEnv, timeout })
    let out = ""
    let err = ""
    child.stdout.on("data", (chunk) => (out += chunk))
    child.stderr.on("data", (chunk) => (err += chunk))
    child.on("close", (code) => resolve({ code, out, err }))
  })
}

async function ok(command: string, cwd: string): Promise<Result> {
  const result = await sh(command, cwd)
  if (result.code !== 0)
    throw new Error(`\`${command}\` failed (${result.code}):\n${result.out}${result.err}`)
  return result
}

/** A new, empty project outside the repository. */
function newProject(name: string): string {
  const dir = join(work, name)
  mkdirSync(dir)
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true }, null, 2))
  return dir
}

// npm's own checks and messages are not what these tests are about.
const NPM_FLAGS = "--prefer-offline --no-audit --no-fund --loglevel=error"

beforeAll(async () => {
  await ok(`node ${join(root, "scripts/pack.mjs")} --out ${packs}`, root)
}, 300_000)

afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("@tessera/core alone, from its tarball", () => {
  let dir: string
  beforeAll(async () => {
    dir = newProject("core-only")
    await ok(`npm install ${NPM_FLAGS} ${tarball("core")}`, dir)
  }, 300_000)

  test("is installed with its license, and its `tessera` command is core's", () => {
    const installed = join(dir, "node_modules/@tessera/core")
    expect(readFileSync(join(installed, "LICENSE"), "utf8")).toContain("ISC License")
    expect(realpathSync(join(dir, "node_modules/.bin/tessera"))).toBe(
      realpathSync(join(installed, "bin/tessera.js")),
    )
  })

  test("npx tessera secret prints a secret", async () => {
    // `--no`: never fetch a package of that name from the registry; the local command must answer.
    const result = await sh("npx --no tessera secret", dir)
    expect(result.code, result.err).toBe(0)
    expect(result.out).toMatch(/^[A-Za-z0-9_-]{43}\n$/)
  })

  test("npx tessera migrate says what it needs", async () => {
    const result = await sh("npx --no tessera migrate", dir)
    expect(result.code).toBe(1)
    expect(result.err).toContain("needs @tessera/sql")
    // The tarball, not `npm install @tessera/sql`: a registry 404 while Tessera is unpublished.
    expect(result.err).toContain(`npm install <checkout>/packs/tessera-sql-${version}.tgz`)
  })

  test("a tiny app signs in with credentials and reads its session", async () => {
    writeFileSync(
      join(dir, "app.mjs"),
      `import { Auth } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"

const config = {
  secret: "a secret of at least thirty-two characters",
  url: "http://localhost:3000/auth",
  providers: [
    Credentials({
      credentials: { username: {} },
      authorize: ({ username }) => (username === "ada" ? { id: "1", name: "Ada" } : null),
    }),
  ],
}
const cookiesOf = (response) => response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ")
const csrf = await Auth(new Request("http://localhost:3000/auth/csrf"), config)
const { csrfToken } = await csrf.json()
const signIn = await Auth(
  new Request("http://localhost:3000/auth/callback/credentials", {
    method: "POST",
    headers: { cookie: cookiesOf(csrf), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, username: "ada" }),
  }),
  config,
)
const session = await Auth(
  new Request("http://localhost:3000/auth/session", { headers: { cookie: cookiesOf(signIn) } }),
  config,
)
console.log(JSON.stringify({ status: signIn.status, session: await session.json() }))
`,
    )
    const result = await ok("node app.mjs", dir)
    expect(JSON.parse(result.out)).toMatchObject({
      status: 302,
      session: { user: { name: "Ada" } },
    })
  })
})

/** The README's quick-start blocks: `<!-- quickstart[ <framework>]: <role> -->`, then a code block. */
function quickStarts(): Map<string, string> {
  const readme = readFileSync(join(root, "README.md"), "utf8")
  const blocks = new Map<string, string>()
  const marker = /<!-- quickstart(?: (\w+))?: ([\w.]+) -->\s*\n```\w*\n([\s\S]*?)\n```/g
  for (const [, framework, role, code] of readme.matchAll(marker))
    blocks.set(framework ? `${framework} ${role}` : role!, code!)
  return blocks
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** Runs a server's command line until `stop()`; resolves once it prints `Listening on`. */
function startServer(command: string, cwd: string) {
  const child = spawn("sh", ["-c", command], { cwd, env: cleanEnv, detached: true })
  let output = ""
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once("exit", () => resolve())
      process.kill(-child.pid!, "SIGTERM")
    })
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "Listening on":\n${output}`)), 60_000)
    const read = (chunk: Buffer) => {
      output += chunk
      if (output.includes("Listening on")) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on("data", read)
    child.stderr.on("data", read)
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`exited (${code}):\n${output}`))
    })
  })
  return { ready, stop, output: () => output }
}

describe("the README's Node.js quick starts, in a fresh project", () => {
  const blocks = quickStarts()
  let dir: string

  test("the README has them: auth.mjs, and an install line, server.mjs and a run line per framework", () => {
    for (const role of ["auth.mjs", "express install", "express server.mjs", "express run"])
      expect(blocks.has(role), role).toBe(true)
    for (const role of ["hono install", "hono server.mjs", "hono run"])
      expect(blocks.has(role), role).toBe(true)
  })

  beforeAll(async () => {
    dir = newProject("quick-start")
    // The README's install lines, with the tarballs where this test packed them.
    for (const framework of ["express", "hono"]) {
      const install = blocks
        .get(`${framework} install`)!
        .replaceAll("../tessera/packs/", `${packs}/`)
      await ok(`${install} ${NPM_FLAGS}`, dir)
    }
    writeFileSync(join(dir, "auth.mjs"), blocks.get("auth.mjs")!)
  }, 300_000)

  test.each(["express", "hono"])(
    "%s: runs as written, sends strangers to sign in, signs alice in, refuses a wrong password",
    async (framework) => {
      const port = String(await freePort())
      writeFileSync(
        join(dir, "server.mjs"),
        blocks.get(`${framework} server.mjs`)!.replaceAll("3000", port),
      )
      const server = startServer(blocks.get(`${framework} run`)!.replaceAll("3000", port), dir)
      try {
        await server.ready
        const origin = `http://localhost:${port}`
        const browser = new HttpBrowser(origin)

        const stranger = await browser.request("/")
        expect(stranger.status).toBe(302)
        expect(stranger.headers.get("location")).toBe("/auth/signin?callbackUrl=/")
        expect((await browser.request("/auth/signin")).status).toBe(200)

        const refused = await browser.signInWithCredentials({ username: "alice", password: "x" })
        const error = new URL(refused.headers.get("location")!).searchParams.get("error")
        expect(error).toBe("CredentialsSignin")

        const signedIn = await browser.signInWithCredentials(
          { username: "alice", password: "wonderland-42" },
          { callbackUrl: "/" },
        )
        expect(signedIn.headers.get("location")).toBe(`${origin}/`)
        const home = await browser.request("/")
        expect(home.status).toBe(200)
        expect(await home.text()).toBe("Signed in as Alice. Sign out: /auth/signout")
      } finally {
        await server.stop()
      }
    },
    120_000,
  )
})

describe("@tessera/core and @tessera/sql installed together", () => {
  let dir: string
  let postgres: Awaited<ReturnType<typeof startPostgres>>
  beforeAll(async () => {
    dir = newProject("core-and-sql")
    await ok(`npm install ${NPM_FLAGS} --ignore-scripts ${tarball("core")} ${tarball("sql")}`, dir)
    postgres = await startPostgres()
  }, 300_000)
  afterAll(async () => {
    await postgres?.stop()
  })

  test("each bin is its own package's: `tessera` is core's, `tessera-sql` is sql's", () => {
    const bin = (name: string) => realpathSync(join(dir, "node_modules/.bin", name))
    expect(bin("tessera")).toBe(
      realpathSync(join(dir, "node_modules/@tessera/core/bin/tessera.js")),
    )
    expect(bin("tessera-sql")).toBe(
      realpathSync(join(dir, "node_modules/@tessera/sql/dist/bin.js")),
    )
    expect(existsSync(join(dir, "node_modules/@tessera/sql/LICENSE"))).toBe(true)
  })

  test("npx tessera secret and npx tessera help", async () => {
    expect((await ok("npx --no tessera secret", dir)).out).toMatch(/^[A-Za-z0-9_-]{43}\n$/)
    expect((await ok("npx --no tessera help", dir)).out).toContain("tessera migrate --from authjs")
  })

  test("npx tessera migrate runs @tessera/sql's migrations on PostgreSQL, and tessera-sql too", async () => {
    const first = await ok(`npx --no tessera migrate --postgres '${postgres.url}'`, dir)
    expect(first.out).toMatch(/applied 0001_init|already up to date/)
    const again = await ok(`npx --no tessera-sql migrate --postgres '${postgres.url}'`, dir)
    expect(again.out).toContain("already up to date")
  })
})

/**
 * The install commands of the pages that install one package, pasted into an empty project
 * (the path to the tarballs is the only change). A tarball whose @tessera dependency is not
 * installed with it makes npm ask the registry for that one: a 404 while Tessera is
 * unpublished (or a stranger's package of that name).
 */
describe("the packages' READMEs and docs/testing.md install lines, in an empty project", () => {
  const pages = [
    ...["core", "express", "hono", "redis", "sql", "sveltekit", "testing"].map(
      (name) => `packages/${name}/README.md`,
    ),
    "docs/testing.md",
  ]

  /** The `npm install` lines of a page's shell blocks, in order. */
  function installLines(page: string): string[] {
    const blocks = readFileSync(join(root, page), "utf8").matchAll(
      /^```(?:sh|bash)\n([\s\S]*?)^```/gm,
    )
    return [...blocks].flatMap(([, code]) =>
      code!.split("\n").filter((line) => /^npm (install|i|add)\b/.test(line)),
    )
  }

  test.each(pages.filter((page) => installLines(page).length > 0))(
    "%s: its install commands work in an empty project",
    async (page) => {
      const dir = newProject(`install-${page.replace(/\W+/g, "-")}`)
      for (const line of installLines(page)) {
        const install = line.replace(/\s+#.*$/, "").replaceAll("../tessera/packs/", `${packs}/`)
        await ok(`${install} ${NPM_FLAGS} --ignore-scripts`, dir)
      }
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>
        devDependencies?: Record<string, string>
      }
      const installed = { ...manifest.dependencies, ...manifest.devDependencies }
      const name = page.startsWith("packages/") ? page.split("/")[1] : "testing"
      expect(Object.keys(installed)).toContain(`@tessera/${name}`)
      // What the package needs at run time stays a run-time dependency of the app.
      if (installed["@tessera/core"]) expect(manifest.dependencies).toHaveProperty("@tessera/core")
    },
    300_000,
  )
})
