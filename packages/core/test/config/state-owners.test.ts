/**
 * State with an owner (issue 10): caches and in-flight work live on the resolved configuration
 * (`ResolvedConfig`: keys, OAuth metadata and clients, Auth.js adoptions) and per-request state
 * on the request context, not in module scope. What must hold across the configuration objects
 * of one app (a new one per request, as `initAuthConfig((c) => ({ ... }))` makes) is the
 * process's: the warnings said and the token refreshes in flight. Every module-level `Map`,
 * `WeakMap` or `let` in core's sources is listed here with why it is not such state; a new one
 * fails this test until it moves to its owner or is listed with its reason.
 */
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { expect, test } from "vitest"

const src = fileURLToPath(new URL("../../src/", import.meta.url))

/** `file: name` -> why it may stay in module scope. */
const REVIEWED: Record<string, string> = {
  "config/resolve.ts: resolutions": "the resolved configurations themselves, by the app's object",
  "config/env.ts: copies": "setEnvDefaults' work on the app's object, before it is resolved",
  "config/env.ts: applied": "setEnvDefaults' work on the app's object, before it is resolved",
  "config/derived.ts: origins":
    "which app's object an integration's copy came from, by the copy (gone with it)",
  "config/warnings-said.ts: saidTo":
    "the warnings said once per process, by the logger they went to (its warn function, gone with it, or the console): an app may make a configuration object per request; each set bounded by the codes (times the providers)",
  "tokens/access-token.ts: refreshesInFlight":
    "token refreshes in flight (a JWT refresh's result 30 s more), by provider, account and a SHA-256 of the refresh token: one refresh per refresh token in the process across an app's configuration objects (one per request, maybe with a new adapter object); bounded by the refreshes under way",
  "config/env.ts: factoryIds": "a provider factory's id, by the factory function (code, not data)",
  "http/client-address.ts: addresses":
    "the peer address an integration handed over, by its Request object (gone with it)",
  "http/response.ts: bareBodyHeaders":
    "frozen constant header records by Content-Type, at most one per body type (code)",
  "http/response.ts: typedHeaders":
    "frozen constant header records with a Content-Type and nosniff (code)",
  "pages/html.ts: compacted": "each template literal's compacted strings (code, not data)",
  "pages/page-context.ts: builtIn": "the built-in English catalog, a module loaded once",
  "password/optional.ts: loaded": "optional packages (argon2, bcrypt) imported once",
  "password/node-crypto.ts: cached": "node:crypto, looked up once",
  "lib/crypto.ts: node": "node:crypto's primitives, looked up once",
  "providers/nodemailer.ts: nodemailer": "the nodemailer package, imported once",
  "providers/nodemailer.ts: transports":
    "nodemailer's transport per provider object (the configuration's; gone with it)",
  "session/jwt.ts: lastIso": "the last answer of a pure function (a date's ISO string)",
}

/** Module-level `Map`/`WeakMap` constants and `let`s, as `file: name`. */
function moduleState(): string[] {
  const found: string[] = []
  for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts") || file.endsWith(".generated.ts")) continue
    for (const line of readFileSync(`${src}${file}`, "utf8").split("\n")) {
      const map = /^(?:export )?(?:const|let) (\w+)(?::[^=]+)? = new (?:Weak)?Map\b/.exec(line)
      const mutable = /^(?:export )?let (\w+)/.exec(line)
      const name = (map ?? mutable)?.[1]
      if (name) found.push(`${file}: ${name}`)
    }
  }
  return found.sort()
}

test("module-level maps and lets are only the reviewed ones", () => {
  const unreviewed = moduleState().filter((entry) => !(entry in REVIEWED))
  expect(unreviewed).toEqual([])
})

test("the reviewed list names only what is still there", () => {
  const present = new Set(moduleState())
  expect(Object.keys(REVIEWED).filter((entry) => !present.has(entry))).toEqual([])
})
