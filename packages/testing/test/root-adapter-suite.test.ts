/**
 * The adapter conformance suite from the main entry, as issue 4 names it
 * (`import { runAdapterTests } from "@tessera/testing"`): run here against the
 * memory adapter, its tests register and run like those of the `/suites` export;
 * outside Vitest the call says where the suite lives.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, expect, test } from "vitest"
import {
  MemoryAdapter,
  createMemoryStore,
  runAdapterTests,
  type AdapterTestOptions,
} from "@tessera/testing"
import { accountKey, tokenKey } from "../src/memory-adapter.js"

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
  db: {
    user: (id) => store.users.get(id) ?? null,
    account: ({ provider, providerAccountId }) =>
      store.accounts.get(accountKey(provider, providerAccountId)) ?? null,
    session: (sessionToken) => store.sessions.get(sessionToken) ?? null,
    verificationToken: ({ identifier, token }) =>
      store.verificationTokens.get(tokenKey(identifier, token)) ?? null,
    authenticator: (credentialID) => store.authenticators.get(credentialID) ?? null,
  } satisfies AdapterTestOptions["db"],
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
