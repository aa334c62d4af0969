/**
 * What the outside tests of each issue share: SQLite files through the harness's backend
 * (closed and removed after the file), a second `SqlAdapter` on the same file (a second
 * process), and one recording logger whose errors fail the test that caused them (client
 * mistakes are never logged as errors).
 */
import { afterAll, afterEach, expect, vi } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { sqliteBackend, type Backend } from "../harness/backends.js"
import { SECRET, recordingLogger } from "../harness/index.js"

export function outsideSetup() {
  const backends: Backend[] = []
  const extra: SqlAdapterInstance[] = []
  const log = recordingLogger()

  afterAll(async () => {
    for (const adapter of extra) await adapter.close()
    for (const backend of backends) await backend.close()
  })
  afterEach(() => {
    vi.useRealTimers()
    const errors = log.errors.splice(0).map((e) => `${e.name}: ${e.message}`)
    expect(errors).toEqual([])
  })

  return {
    log,
    /** A configuration with the test secret, a trusted host and the recording logger. */
    authConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
      return { secret: SECRET, trustHost: true, logger: log.logger, ...overrides }
    },
    /** A migrated SQLite adapter on a file of its own; `path` for a second process on it. */
    async sqlite(): Promise<SqlAdapterInstance & { path: string }> {
      const backend = await sqliteBackend()
      backends.push(backend)
      return Object.assign(backend.adapter as SqlAdapterInstance, { path: backend.path })
    },
    /** Another adapter on the same file: what a second process of the app would open. */
    secondProcess(path: string): SqlAdapterInstance {
      const adapter = SqlAdapter.sqlite(path)
      extra.push(adapter)
      return adapter
    },
  }
}
