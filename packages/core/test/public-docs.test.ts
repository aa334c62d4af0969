/**
 * Every public export of `@tessera/core` is documented the way oauth4webapi documents
 * its API: a description, `@param` for each parameter of a function, and at least one
 * `@see` (the RFC or specification section, or the Auth.js counterpart it mirrors).
 * Checked with the TypeScript compiler on the sources of the public entry points:
 * `.`, `./jwt`, `./errors`, `./types`, `./adapters`, `./sessions`, and each provider factory.
 */
import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, test } from "vitest"

const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url))

const entries = ["index.ts", "jwt.ts", "errors.ts", "types.ts", "adapters.ts", "sessions.ts"]
const providers = readdirSync(src("providers"))
  .filter((file) => file.endsWith(".ts") && file !== "index.ts")
  .map((file) => `providers/${file}`)

const program = ts.createProgram([...entries, ...providers].map(src), {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
})
const checker = program.getTypeChecker()

interface Export {
  module: string
  name: string
  declarations: ts.Declaration[]
}

function exportsOf(file: string, only?: string): Export[] {
  const source = program.getSourceFile(src(file))!
  const moduleSymbol = checker.getSymbolAtLocation(source)!
  return checker
    .getExportsOfModule(moduleSymbol)
    .filter((symbol) => !only || symbol.name === only)
    .map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
      return { module: file, name: symbol.name, declarations: target.declarations ?? [] }
    })
}

/** What is missing from an export's documentation: "description", "@see", "@param x". */
function missing({ declarations }: Export): string[] {
  const problems: string[] = []
  // A file's `@module` comment is attached to its first statement: it documents the module, not that.
  const docs = declarations
    .flatMap((d) => ts.getJSDocCommentsAndTags(d))
    .filter(ts.isJSDoc)
    .filter((doc) => !doc.tags?.some((tag) => tag.tagName.text === "module"))
  const described = docs.some((doc) => ts.getTextOfJSDocComment(doc.comment)?.trim())
  const tags = docs.flatMap((doc) => doc.tags ?? [])
  if (!described) problems.push("description")
  if (!tags.some((tag) => tag.tagName.text === "see")) problems.push("@see")
  const documented = new Set(
    tags.filter(ts.isJSDocParameterTag).map((tag) => tag.name.getText().split(".")[0]),
  )
  for (const declaration of declarations) {
    const functions = ts.isFunctionDeclaration(declaration)
      ? [declaration]
      : ts.isClassDeclaration(declaration)
        ? declaration.members.filter(ts.isConstructorDeclaration)
        : []
    for (const fn of functions) {
      for (const parameter of fn.parameters) {
        const name = ts.isIdentifier(parameter.name) ? parameter.name.text : undefined
        // A destructured parameter is documented by any @param of its properties.
        if (name ? !documented.has(name) : documented.size === 0)
          problems.push(`@param ${name ?? "{...}"}`)
      }
    }
  }
  return [...new Set(problems)]
}

const all = [
  ...entries.flatMap((file) => exportsOf(file)),
  ...providers.flatMap((file) => exportsOf(file, "default")),
]
// `index.ts` re-exports `types.ts`: check each declaration once.
const unique = [...new Map(all.map((e) => [e.declarations[0], e])).values()]

describe("public API documentation", () => {
  test("the entry points export what this test expects to check", () => {
    expect(unique.length).toBeGreaterThan(100)
    expect(unique.map((e) => e.name)).toEqual(
      expect.arrayContaining(["Auth", "encode", "AuthError", "Session", "Adapter", "default"]),
    )
  })

  test("every export has a description, @param for each parameter, and a @see", () => {
    const undocumented = unique
      .map((e) => ({ at: `${e.module}: ${e.name}`, missing: missing(e) }))
      .filter((e) => e.missing.length)
      .map((e) => `${e.at} (${e.missing.join(", ")})`)
    expect(undocumented).toEqual([])
  })
})
