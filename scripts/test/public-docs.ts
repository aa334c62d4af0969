/**
 * What the public-API documentation rule finds missing: every export of a package's entry
 * points has a description, `@param` for each parameter of a function (or constructor), and at
 * least one `@see` (the RFC or specification section, or the Auth.js counterpart it mirrors),
 * the way oauth4webapi documents its API. Shared by the tests that hold each package to it
 * (packages/core/test/public-docs.test.ts, scripts/test/public-docs.test.ts), which read the
 * sources with the TypeScript compiler.
 * @module
 */
import ts from "typescript"

/** An entry point to check: its source file, and optionally the one export to check in it. */
export interface EntryPoint {
  readonly file: string
  readonly only?: string
}

/** One export: the entry point it is exported from, its name, where it is declared. */
export interface PublicExport {
  readonly module: string
  readonly name: string
  readonly declarations: readonly ts.Declaration[]
}

/**
 * The exports of `entries`, each declaration once (an entry point may re-export another's).
 * `declaredUnder`, when given, keeps only what is declared in files under that path: a
 * package re-exporting another package's API leaves that API to the other package's test.
 */
export function publicExports(
  entries: readonly EntryPoint[],
  declaredUnder?: string,
): PublicExport[] {
  const program = ts.createProgram(
    entries.map((entry) => entry.file),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    },
  )
  const checker = program.getTypeChecker()
  const all = entries.flatMap(({ file, only }) => {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!
    return checker
      .getExportsOfModule(moduleSymbol)
      .filter((symbol) => !only || symbol.name === only)
      .map((symbol) => {
        const target =
          symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
        return { module: file, name: symbol.name, declarations: target.declarations ?? [] }
      })
  })
  const own = declaredUnder
    ? all.filter((e) => e.declarations[0]?.getSourceFile().fileName.startsWith(declaredUnder))
    : all
  return [...new Map(own.map((e) => [e.declarations[0], e])).values()]
}

/** What is missing from an export's documentation: "description", "@see", "@param x". */
export function missingDocs({ declarations }: PublicExport): string[] {
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
  const documented = new Set(tags.filter(ts.isJSDocParameterTag).map(paramName))
  for (const declaration of declarations) {
    const functions = ts.isFunctionDeclaration(declaration)
      ? [declaration]
      : ts.isClassDeclaration(declaration)
        ? declaration.members.filter(ts.isConstructorDeclaration)
        : []
    for (const fn of functions) {
      // A constructor's parameters may be documented on the class or on the constructor itself.
      const own = ts.isConstructorDeclaration(fn)
        ? ts.getJSDocTags(fn).filter(ts.isJSDocParameterTag).map(paramName)
        : []
      const known = new Set([...documented, ...own])
      for (const parameter of fn.parameters) {
        const name = ts.isIdentifier(parameter.name) ? parameter.name.text : undefined
        // A destructured parameter is documented by any @param of its properties.
        if (name ? !known.has(name) : known.size === 0) problems.push(`@param ${name ?? "{...}"}`)
      }
    }
  }
  return [...new Set(problems)]
}

/** The parameter a `@param` tag documents (`options` for `@param options.name`). */
function paramName(tag: ts.JSDocParameterTag): string {
  return tag.name.getText().split(".")[0]!
}

/**
 * `"<entry point>: <name> (<what is missing>)"` for each export of `exports` whose
 * documentation is incomplete; `root` is cut from the paths.
 */
export function undocumented(exports: readonly PublicExport[], root = ""): string[] {
  return exports
    .map((e) => ({ at: `${e.module.replace(root, "")}: ${e.name}`, missing: missingDocs(e) }))
    .filter((e) => e.missing.length)
    .map((e) => `${e.at} (${e.missing.join(", ")})`)
}
