/**
 * Each example as a user runs it: `node server.js` in its folder, as a child
 * process on 127.0.0.1 and a free port, against the built packages (run
 * `npm run build` first; `npm test` does). Signs in over HTTP, opens the
 * protected page and the JSON route, signs out, and stops the server.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterEach, describe, expect, test } from "vitest"
import { HttpBrowser } from "@tessera/testing"

const root = fileURLToPath(new URL("../../", import.meta.url))

const examples = [
  { name: "express", built: "packages/express/dist/index.js" },
  { name: "hono", built: "packages/hono/dist/index.js" },
]

const children: ChildProcess[] = []
afterEach(async () => {
  await Promise.all(children.splice(0).map(stop))
})

/** Starts the example and resolves with the origin it prints once it listens. */
function startExample(name: string): Promise<string> {
  // As from a fresh shell: none of the AUTH_* settings a test may have set.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("AUTH_")),
  )
  const child = spawn(process.execPath, ["server.js"], {
    cwd: `${root}examples/${name}`,
    env: { ...env, HOST: "127.0.0.1", PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  })
  children.push(child)
  return new Promise((resolve, reject) => {
    let output = ""
    const timer = setTimeout(() => reject(new Error(`no "listening" line:\n${output}`)), 15_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    }
    child.stdout!.on("data", read)
    child.stderr!.on("data", read)
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the example exited (${code}):\n${output}`))
    })
  })
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once("exit", () => resolve())
    child.kill("SIGTERM")
  })
}

describe.each(examples)("examples/$name", ({ name, built }) => {
  test("runs, signs in with credentials, guards the protected page, signs out", async () => {
    if (!existsSync(`${root}${built}`)) throw new Error(`${built} is missing: run npm run build`)
    const origin = await startExample(name)
    const b = new HttpBrowser(origin)

    const guarded = await b.request("/protected")
    expect(guarded.status).toBe(302)
    expect(guarded.headers.get("location")).toBe("/auth/signin?callbackUrl=%2Fprotected")
    expect((await b.request("/api/me")).status).toBe(401)

    const signIn = await b.signInWithCredentials(
      { username: "alice", password: "wonderland-42" },
      { callbackUrl: "/protected" },
    )
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get("location")).toBe(`${origin}/protected`)

    const page = await b.request("/protected")
    expect(page.status).toBe(200)
    expect(await page.text()).toContain("Hello Alice")
    expect(await (await b.request("/api/me")).json()).toMatchObject({ user: { name: "Alice" } })
    expect(await (await b.request("/")).text()).toContain("Signed in as Alice")

    expect((await b.signOut()).status).toBe(302)
    expect((await b.request("/api/me")).status).toBe(401)

    const refused = await b.signInWithCredentials({ username: "alice", password: "nope" })
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe(
      "CredentialsSignin",
    )
  })
})
