/**
 * The adapter conformance suite from the main entry, as issue 4 names it
 * (`import { runAdapterTests } from "@tessera/testing"`): run here against the
 * memory adapter, its tests register and run like those of the `/suites` export;
 * outside Vitest the call says where the suite lives.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, expect, test } from "vitest"
import { MemoryAdapter, createMemoryStore, runAdapterTests } from "@tessera/testing"
import { memoryDb } from "./memory-db.js"

const store = createMemoryStore()
const adapter = MemoryAdapter(store)
let created = 0

runAdapterTests({
  name: "MemoryAdapter conformance, from the main entry",
  adapter: {
    ...adapter,
    createUser: (user) => {
      created++
      return adapter.createUser!(user)
    },
  },
  db: memoryDb(store),
})

afterAll(() => {
  // The suite's tests really ran, against this adapter.
  expect(created).toBeGreaterThan(5)
})

test("outside Vitest, the call throws and names @tessera/testing/suites", () => {
  const entry = fileURLToPath(new URL("../dist/index.js", import.meta.url))
  const script = `const { runAdapterTests } = await import(${JSON.stringify(entry)})
try { runAdapterTests({ adapter: {}, db: {} }); console.log("registered") } catch (error) { console.log(error.message) }`
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 30_000,
  })
  expect(child.status).toBe(0)
  expect(child.stdout).toMatch(/@tessera\/testing\/suites/)
})
