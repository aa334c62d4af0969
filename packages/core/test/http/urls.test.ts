/**
 * One module builds every action URL (issue 10): `http/urls.ts`. Elsewhere in the sources an
 * action URL comes from `actionUrl`/`providerUrls`/`signInPageUrl`, never from `ctx.authUrl` or
 * `basePath` spelt out with an action after it. (`createActionURL` in config/env.ts is the public
 * helper of Auth.js's shape, for code outside a request, and builds its own from the origin.)
 * And what `actionUrl` builds: the trusted base, the action, the encoded provider id, the query.
 */
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { expect, test } from "vitest"
import { actionUrl } from "../../src/http/urls.js"

const src = fileURLToPath(new URL("../../src/", import.meta.url))
const ALLOWED = new Set(["http/urls.ts", "config/env.ts"])

/** A template literal that puts a path after the auth base URL or the base path. */
const HAND_BUILT = /\$\{(?:[\w.]*\.)?(?:authUrl|basePath)\}\/(?:\$\{|[a-z])/

test("no module but http/urls.ts builds an action URL by hand", () => {
  const offenders = readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".generated.ts"))
    .filter((file) => !ALLOWED.has(file))
    .flatMap((file) =>
      readFileSync(`${src}${file}`, "utf8")
        .split("\n")
        .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
        .filter(({ line }) => !/^\s*(\/?\*|\/\/)/.test(line) && HAND_BUILT.test(line)),
    )
    .map(({ where, line }) => `${where}: ${line.trim()}`)
  expect(offenders).toEqual([])
})

test("actionUrl: the base, the action, the provider id as one segment, the query", () => {
  const ctx = { authUrl: "https://app.example/api/auth" }
  expect(actionUrl(ctx, "callback", "a b/c", { provider: "x", type: "email" })).toBe(
    "https://app.example/api/auth/callback/a%20b%2Fc?provider=x&type=email",
  )
  expect(actionUrl(ctx, "sessions/revoke")).toBe("https://app.example/api/auth/sessions/revoke")
})
