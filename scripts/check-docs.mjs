#!/usr/bin/env node
// `npm run check:docs`: type-checks the TypeScript samples of the README and the guide against
// the built packages (after `npm run build`), as a user's project would compile them.
//
// Every ```ts block of README.md and docs/*.md is its own module (a `.mts` file, so top-level
// `await` and `import` work as in an ESM project). A block right after a `<!-- no-check -->`
// line is a fragment (a few options, a file of a SvelteKit app that imports `./$types`) and is
// skipped; one after `<!-- commonjs -->` is a CommonJS project's file (`.cts`). Names the samples take as given (`db`, `request`, `findUser`, ...) are declared
// once, in scripts/doc-samples.d.ts: a sample may use them without declaring them.
//
// The README's JavaScript quick starts are checked with them (`checkJs`): see below.
//
// Errors are reported at the Markdown file and line: `docs/sessions.md:42: TS2304 ...`.
//
// It also checks the links between the repository's Markdown files, the packages' READMEs
// included: each relative link names a file that exists and, for a `#fragment` into a Markdown
// file, a heading that does (scripts/check-links.mjs).
//
// And the install commands of the README, the guide and the packages' READMEs: while the
// packages are not on the npm registry, each `npm install` in a shell block installs `npm run
// pack`'s tarballs, named with the packages' current version (a bare `@tessera/<name>` is an npm
// 404 for whoever pastes it).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { brokenLinks, guideMarkdown, linkedMarkdown, packageReadmes } from "./check-links.mjs"

const root = fileURLToPath(new URL("..", import.meta.url))
// Inside node_modules so that `@tessera/*` resolve as they do for an app: through each
// package's exports, to its built declarations.
const outDir = join(root, "node_modules", ".cache", "tessera-doc-samples")

const markdown = guideMarkdown(root)

/** The ```ts blocks of a Markdown file: their code and the line of their opening fence. */
function samplesOf(file) {
  const lines = readFileSync(join(root, file), "utf8").split("\n")
  const samples = []
  let skipped = 0
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(ts|typescript)\s*$/.exec(lines[i])
    if (!open) continue
    const end = lines.findIndex((line, j) => j > i && line.trim() === "```")
    if (end === -1) throw new Error(`${file}:${i + 1}: a code block that never ends`)
    let before = i - 1
    while (before >= 0 && lines[before].trim() === "") before--
    if (lines[before]?.trim() === "<!-- no-check -->") skipped++
    else {
      const indent = open[1].length
      const code = lines.slice(i + 1, end).map((line) => line.slice(indent))
      const commonjs = lines[before]?.trim() === "<!-- commonjs -->"
      samples.push({ file, line: i + 1, code: code.join("\n"), commonjs })
    }
    i = end
  }
  return { samples, skipped }
}

rmSync(outDir, { recursive: true, force: true })
mkdirSync(outDir, { recursive: true })

const samples = []
let skipped = 0
for (const file of markdown) {
  const found = samplesOf(file)
  skipped += found.skipped
  for (const sample of found.samples) {
    // A CommonJS project's file (`.cts`) where the block follows `<!-- commonjs -->`.
    const name = `${file.replace(/[^\w]+/g, "_")}_L${sample.line}.${sample.commonjs ? "cts" : "mts"}`
    // `export {}` keeps a sample without imports a module: its names stay its own.
    writeFileSync(join(outDir, name), `${sample.code}\nexport {}\n`)
    samples.push({ ...sample, path: join(outDir, name) })
  }
}

// The README's Node.js quick starts are JavaScript (`<!-- quickstart[ <framework>]: <file>.mjs -->`
// then a code block): checked too (`checkJs`, strict), as an editor shows them to a user who
// opens them or renames them to `.ts`. Each framework's files sit in a folder of their own, with
// the shared `auth.mjs` beside its `server.mjs`.
const quickStartFiles = new Map()
const readmeText = readFileSync(join(root, "README.md"), "utf8")
for (const match of readmeText.matchAll(
  /<!-- quickstart(?: (\w+))?: ([\w-]+\.mjs) -->\s*\n```\w*\n([\s\S]*?)\n```/g,
)) {
  const [, framework, file, code] = match
  // The line of the opening fence, as for the ```ts samples.
  const fence = match.index + match[0].indexOf("```")
  const line = readmeText.slice(0, fence).split("\n").length
  quickStartFiles.set(framework ? `${framework}/${file}` : file, { code, line })
}
const shared = [...quickStartFiles].filter(([key]) => !key.includes("/"))
const frameworks = new Set(
  [...quickStartFiles.keys()].flatMap((key) => key.split("/").slice(0, -1)),
)
for (const framework of frameworks) {
  const dir = join(outDir, `quickstart-${framework}`)
  mkdirSync(dir, { recursive: true })
  const own = [...quickStartFiles].filter(([key]) => key.startsWith(`${framework}/`))
  for (const [key, { code, line }] of [...shared, ...own]) {
    const path = join(dir, key.split("/").pop())
    writeFileSync(path, `${code}\n`)
    samples.push({ file: "README.md", line, code, path, js: true })
  }
}
if (frameworks.size === 0)
  throw new Error("README.md: no <!-- quickstart <framework>: server.mjs --> blocks found")

const options = {
  allowJs: true,
  checkJs: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
  types: ["node"],
  typeRoots: [join(root, "node_modules", "@types")],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  esModuleInterop: true,
  isolatedModules: true,
}
const prelude = join(root, "scripts", "doc-samples.d.ts")
const program = ts.createProgram([prelude, ...samples.map((sample) => sample.path)], options)
const byPath = new Map(samples.map((sample) => [sample.path, sample]))

let errors = 0
for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")
  const sample = diagnostic.file && byPath.get(diagnostic.file.fileName)
  if (diagnostic.file && diagnostic.start !== undefined && sample) {
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
    console.error(`${sample.file}:${sample.line + 1 + line}: TS${diagnostic.code} ${message}`)
  } else {
    const where = diagnostic.file ? `${relative(root, diagnostic.file.fileName)}: ` : ""
    console.error(`${where}TS${diagnostic.code} ${message}`)
  }
  errors++
}

// Links: see scripts/check-links.mjs.
const linked = linkedMarkdown(root)
const broken = brokenLinks(root, linked)
for (const { file, link, problem } of broken)
  console.error(`${file}: broken link ${link} (${problem})`)
const brokenLinkCount = broken.length

// Install commands, as a newcomer pastes them: the packages are not on the npm registry yet,
// so `npm install @tessera/core` answers 404 (or, worse, a stranger's package of that name).
// Every `npm install` in a shell block installs the tarballs `npm run pack` writes, named with
// the packages' current version.
const versions = new Map(
  readdirSync(join(root, "packages")).flatMap((dir) => {
    const manifest = join(root, "packages", dir, "package.json")
    if (!existsSync(manifest)) return []
    const { name, version, private: unpublished } = JSON.parse(readFileSync(manifest, "utf8"))
    return unpublished ? [] : [[name.replace(/^@tessera\//, ""), version]]
  }),
)
// Each package's own @tessera dependencies: a block that installs its tarball installs theirs too,
// or npm asks the registry for them (a 404 in an empty project).
const tesseraDependencies = new Map(
  readdirSync(join(root, "packages")).flatMap((dir) => {
    const manifest = join(root, "packages", dir, "package.json")
    if (!existsSync(manifest)) return []
    const { name, dependencies = {} } = JSON.parse(readFileSync(manifest, "utf8"))
    const needs = Object.keys(dependencies).filter((dep) => dep.startsWith("@tessera/"))
    return [[name.replace(/^@tessera\//, ""), needs.map((dep) => dep.slice("@tessera/".length))]]
  }),
)
let badInstalls = 0
// The packages' own READMEs too: the guide links them, and npm shows them on each package's page.
for (const file of [...markdown, ...packageReadmes(root)]) {
  const lines = readFileSync(join(root, file), "utf8").split("\n")
  let shell = false
  // The tarballs the current shell block installs, with the line of each.
  let block = new Map()
  lines.forEach((line, index) => {
    const fence = /^\s*```(\w*)\s*$/.exec(line)
    if (fence) {
      for (const [name, at] of block)
        for (const dep of tesseraDependencies.get(name) ?? [])
          if (!block.has(dep)) {
            console.error(
              `${file}:${at}: tessera-${name} needs @tessera/${dep}, not on the npm registry: install its tarball in the same block`,
            )
            badInstalls++
          }
      block = new Map()
      return void (shell = !shell && ["sh", "bash", "shell", "console"].includes(fence[1]))
    }
    if (!shell || !/\bnpm (install|i|add)\b/.test(line)) return
    const problems = []
    for (const [, name] of line.matchAll(/(?:^|\s)@tessera\/([\w-]+)(?=\s|$|@)/g))
      problems.push(
        `@tessera/${name} is not on the npm registry: install packs/tessera-${name}-${versions.get(name) ?? "<version>"}.tgz`,
      )
    for (const [tarball, name, version] of line.matchAll(
      /tessera-([a-z]+)-(\d+\.\d+\.\d+[\w.-]*)\.tgz/g,
    )) {
      block.set(name, index + 1)
      if (!versions.has(name)) problems.push(`${tarball}: no package @tessera/${name}`)
      else if (versions.get(name) !== version)
        problems.push(`${tarball}: npm run pack writes tessera-${name}-${versions.get(name)}.tgz`)
    }
    for (const problem of problems) console.error(`${file}:${index + 1}: ${problem}`)
    badInstalls += problems.length
  })
}

const jsFiles = samples.filter((sample) => sample.js).length
const summary = `${samples.length - jsFiles} TypeScript samples in ${markdown.length} files (${skipped} marked no-check) and ${jsFiles} files of the README's JavaScript quick starts`
if (errors || brokenLinkCount || badInstalls) {
  console.error(
    `check:docs: ${errors} type errors in ${summary}; ${brokenLinkCount} broken links; ${badInstalls} install commands that fail`,
  )
  process.exit(1)
}
console.log(
  `check:docs: ${summary} type-check against the built packages; links between ${linked.length} Markdown files resolve; install commands name the packed tarballs`,
)
