// The second process of the rate-limit store suite's two-process test: its own
// connection to the database the test process uses, through the built package.
import { SqlAdapter } from "@tessera/sql"
import { runRateLimitStoreWorker } from "@tessera/testing/rate-limit-store-worker"

await runRateLimitStoreWorker(async () => {
  const {
    TESSERA_SQLITE_FILE: file,
    TESSERA_POSTGRES_URL: url,
    TESSERA_POSTGRES_SCHEMA: schema,
  } = process.env
  const adapter = file
    ? SqlAdapter.sqlite(file)
    : SqlAdapter.postgres({ connectionString: url, options: `-c search_path=${schema}` })
  return { store: adapter.rateLimitStore(), close: () => adapter.close() }
})
