/**
 * Red team, round 22: attacker-sized identifiers as storage keys. Rate-limit keys are keyed
 * hashes (pinned in packages/redis/test), but a verification token's `identifier` is stored
 * as given, in the primary key of `verification_tokens`. With an Auth.js-style
 * `normalizeIdentifier` that does not bound the address (`s.trim().toLowerCase()`), a
 * 30 KB "address" reached PostgreSQL, whose index refuses a row that large: the request
 * failed as a server fault (`error=Configuration`, an `AdapterError` logged at error),
 * repeatable by anyone to flood the error log. Now refused before the database, as an
 * invalid address (`error=EmailSignin`), and no mail goes out.
 */
import { expect, test } from "vitest"
import { Auth } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { SqlAdapter } from "@tessera/sql"
import { csrfToken, makeConfig, post } from "../../../core/test/harness/index.js"
import { postgresSchemas } from "../helpers.js"

const pgs = postgresSchemas("tessera_rt22")

test("a 30 KB address through a lax normalizeIdentifier is a client error, not a PostgreSQL fault", async () => {
  const adapter = SqlAdapter.postgres(pgs.poolConfig(await pgs.fresh("rt22")))
  await adapter.migrate()
  const mailed: string[] = []
  const { config, log } = makeConfig({
    adapter,
    providers: [
      Email({
        normalizeIdentifier: (s: string) => s.trim().toLowerCase(),
        sendVerificationRequest: async ({ identifier }: { identifier: string }) =>
          void mailed.push(identifier),
      } as never),
    ],
  })
  // Random characters: PostgreSQL compresses a repeated one below its index row limit.
  const local = Array.from({ length: 3000 }, () => Math.random().toString(36).slice(2, 12)).join("")
  const { token, jar } = await csrfToken(config)
  const email = `${local.slice(0, 30_000)}@example.com`
  const response = await Auth(
    post("/auth/signin/email", { email, csrfToken: token }, { jar }),
    config,
  )
  expect(response.headers.get("location")).toContain("error=EmailSignin")
  expect(log.errors).toEqual([])
  expect(mailed).toEqual([])
  // An ordinary address still signs in through the same provider.
  const again = await csrfToken(config)
  const ok = await Auth(
    post(
      "/auth/signin/email",
      { email: "ada@example.com", csrfToken: again.token },
      { jar: again.jar },
    ),
    config,
  )
  expect(ok.headers.get("location")).toContain("/auth/verify-request")
  expect(mailed).toEqual(["ada@example.com"])
  await adapter.close?.()
})
