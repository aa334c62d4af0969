/**
 * Audit 11 (issue 9, the demo in production): `NODE_ENV=production` without
 * `AUTH_SECRET` must not fall back to development defaults, which publish
 * demo passwords, offer an "any name, any password" identity provider and a
 * mailbox page anyone can read. The demo refuses to start instead, in one line,
 * before it writes a secret file or listens.
 */
import { spawnSync } from "node:child_process"
import { existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { demoDir, makeDataDir } from "./demo-server"

test("NODE_ENV=production without AUTH_SECRET: no development defaults, the demo says why and exits 1", () => {
  const dataDir = makeDataDir()
  try {
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries(process.env))
      if (value !== undefined && !/^(AUTH_|DEMO_|EMAIL_|ORIGIN$)/.test(key)) env[key] = value
    const result = spawnSync(process.execPath, ["server.js"], {
      cwd: demoDir,
      encoding: "utf8",
      timeout: 30_000,
      env: { ...env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", DEMO_DATA_DIR: dataDir },
    })
    expect(result.status).toBe(1)
    expect(result.stderr.trim()).toMatch(/^NODE_ENV=production needs AUTH_SECRET/)
    expect(result.stdout).not.toContain("ready")
    expect(existsSync(join(dataDir, "dev-secret"))).toBe(false)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
})
