/**
 * `npm run check:docs`'s link check, on a repository made for the test: the packages' READMEs
 * (which npm shows) are checked like the guide.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, test } from "vitest"
// @ts-expect-error -- a plain .mjs script, no declarations
import { brokenLinks, linkedMarkdown } from "../check-links.mjs"

const root = mkdtempSync(join(tmpdir(), "tessera-links-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function write(file: string, text: string) {
  mkdirSync(join(root, file, ".."), { recursive: true })
  writeFileSync(join(root, file), text)
}

test("a broken link or anchor in a package's README is reported, its good links are not", () => {
  for (const file of ["README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md"])
    write(file, "# Tessera\n")
  write("docs/databases.md", "# Databases\n\n## What migrate refuses\n")
  write(
    "packages/sql/README.md",
    [
      "# @tessera/sql",
      "[guide](../../docs/databases.md#what-migrate-refuses)",
      "[online](https://github.com/tessera-auth/tessera/blob/main/docs/nowhere.md)",
      "[gone](../../docs/sql.md)",
      "[heading](../../docs/databases.md#what-purge-refuses)",
      "```md\n[in code](nowhere.md)\n```",
      "",
    ].join("\n"),
  )
  write("packages/core/package.json", "{}")

  const files = linkedMarkdown(root) as string[]
  expect(files).toContain("packages/sql/README.md")
  expect(brokenLinks(root, files)).toEqual([
    { file: "packages/sql/README.md", link: "../../docs/sql.md", problem: "no such file" },
    {
      file: "packages/sql/README.md",
      link: "../../docs/databases.md#what-purge-refuses",
      problem: "no such heading",
    },
  ])
})
