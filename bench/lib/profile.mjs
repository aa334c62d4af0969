// CPU time by package from V8 CPU profiles (`node --cpu-prof`, or the same
// profiler started through `node:inspector`).
//
// Each sample is charged to the package of the innermost frame that belongs to
// one (a file under node_modules/<package>, packages/<name>, or a generated
// app's build): Node internals and native functions (JSON.parse, crypto) count
// for the package whose code called them. Samples taken inside Node's module
// loader before any package frame (resolving, reading, compiling and linking
// modules) are listed as the loader's: a profile cannot tell which module was
// being compiled; likewise for Node loading its own lazily loaded built-ins
// (undici, behind the Request and Response globals). Samples with none of
// these on the stack are Node's own work (bootstrap, the HTTP server, timers).
// Garbage collection, idle time and the profiler's own work are listed apart.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

/** The package a script URL belongs to, or undefined for Node internals and natives. */
export function packageOf(url) {
  if (!url || url.startsWith("node:")) return undefined
  const modules = url.lastIndexOf("/node_modules/")
  if (modules !== -1) {
    const [scope, name] = url.slice(modules + "/node_modules/".length).split("/")
    return scope.startsWith("@") ? `${scope}/${name}` : scope
  }
  const workspace = /\/packages\/([^/]+)\//.exec(url)
  if (workspace) return `@tessera/${workspace[1]}`
  if (/\/build\//.test(url))
    return "the app's build (SvelteKit runtime, Svelte, app code, @*/sveltekit)"
  return "the app itself (generated entry, benchmark script)"
}

const LOADER = "node's module loader (resolve, read, compile, link)"
const BUILTINS = "node loading its own built-ins (undici for Request/Response, http, ...)"
const NODE = "node itself (bootstrap, http, streams, timers)"

const SPECIAL = new Map([
  ["(garbage collector)", "(garbage collector)"],
  ["(idle)", "(idle)"],
  ["(program)", "(program: V8 and Node native work outside JS)"],
  ["(root)", "(program: V8 and Node native work outside JS)"],
])

/**
 * Adds one profile's samples into `totals` (microseconds by package). With
 * `files`, also adds the samples charged to that package into `files.totals`
 * by the package's own file (the innermost frame of it on the stack).
 */
export function addProfile(profile, totals = new Map(), files) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map()
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id)
  const owner = new Map()
  const ownerOf = (id) => {
    if (owner.has(id)) return owner.get(id)
    const node = nodes.get(id)
    const special = SPECIAL.get(node.callFrame.functionName)
    const { url } = node.callFrame
    let result = special ?? packageOf(url)
    if (!result && url === "node:inspector") result = "(profiler)"
    if (!result && url.startsWith("node:internal/modules/")) result = LOADER
    if (!result && url === "node:internal/bootstrap/realm") result = BUILTINS
    if (!result) {
      const up = parent.get(id)
      result = up === undefined ? NODE : ownerOf(up)
      if (result.startsWith("(")) result = NODE
    }
    owner.set(id, result)
    return result
  }
  const fileOf = (id) => {
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const { url } = nodes.get(at).callFrame
      if (packageOf(url) === files.package) return url.slice(url.lastIndexOf(files.marker))
    }
    return "?"
  }
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]
    const key = ownerOf(id)
    const delta = profile.timeDeltas[i] ?? 0
    totals.set(key, (totals.get(key) ?? 0) + delta)
    if (files && key === files.package) {
      const file = fileOf(id)
      files.totals.set(file, (files.totals.get(file) ?? 0) + delta)
    }
  }
  return totals
}

/** All `.cpuprofile` files of a folder, summed: [{ package, ms, share }] sorted, idle apart. */
export function summarizeProfiles(dir, runs = 1) {
  const totals = new Map()
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".cpuprofile")))
    addProfile(JSON.parse(readFileSync(join(dir, file), "utf8")), totals)
  const idle = totals.get("(idle)") ?? 0
  totals.delete("(idle)")
  const busy = [...totals.values()].reduce((a, b) => a + b, 0)
  return {
    busyMs: Number((busy / 1000 / runs).toFixed(1)),
    idleMs: Number((idle / 1000 / runs).toFixed(1)),
    byPackage: [...totals]
      .sort((a, b) => b[1] - a[1])
      .map(([name, micros]) => ({
        package: name,
        ms: Number((micros / 1000 / runs).toFixed(2)),
        share: Number((micros / busy).toFixed(3)),
      })),
  }
}
