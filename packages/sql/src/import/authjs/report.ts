/**
 * What an import did or would do, as data (`ImportReport`) and as the text the
 * CLI prints. The report names rows by user id, e-mail, provider account id or
 * passkey credential ID, never by a session or verification token: those are
 * credentials, and reports end up in terminals, CI logs and tickets.
 *
 * Those names are the app's users' to write (an OpenID provider's `email` and
 * `sub`, a sign-up form), so every control character in them is printed
 * escaped: an ANSI sequence would act on the operator's terminal, a line break
 * would forge a report line, a bidi control would reorder what is read.
 * @module
 */
import { KINDS, type Kind, type Layout } from "./detect.js"
import type { KindSummary, Plan } from "./plan.js"

export interface ImportReport {
  applied: boolean
  /** `SQLite ./auth.db`, `PostgreSQL postgres://app:***@db/app` */
  source: string
  /** Undefined when in place. */
  target?: string
  layout: {
    label: string
    tool?: string
    tables: { kind: Kind; table: string; rows: number; extra: string[] }[]
  }
  /** Tessera's migrations applied (or, in a dry run, pending); empty when its schema was in place. */
  migrations: string[]
  summary: Record<Kind, KindSummary>
  conflicts: string[]
  conversions: string[]
}

export function buildReport(
  meta: { applied: boolean; source: string; target?: string; migrations: string[] },
  layout: Layout,
  plan: Plan,
): ImportReport {
  const tables = KINDS.flatMap((kind) => {
    const mapping = layout[kind]
    return mapping
      ? [{ kind, table: mapping.table, rows: plan.summary[kind].found, extra: mapping.extra }]
      : []
  })
  return {
    ...meta,
    layout: { label: layout.label, ...(layout.tool ? { tool: layout.tool } : {}), tables },
    summary: plan.summary,
    conflicts: plan.conflicts,
    conversions: plan.conversions,
  }
}

/** C0 and C1 controls, DEL, and the bidi controls (marks, embeddings, overrides, isolates). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" }

/** `line` with each control character written out (`\x1b`, `\n`, `\u202e`): one line, inert. */
function printable(line: string): string {
  return line.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0)
    return (
      NAMED[c] ??
      (code < 0x100
        ? `\\x${code.toString(16).padStart(2, "0")}`
        : `\\u${code.toString(16).padStart(4, "0")}`)
    )
  })
}

const LABELS: Record<Kind, string> = {
  users: "users",
  accounts: "accounts",
  sessions: "sessions",
  verification_tokens: "verification tokens",
  authenticators: "passkeys",
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("   "),
  )
}

/** The report as the CLI prints it. */
export function formatReport(report: ImportReport): string {
  const lines: string[] = []
  const wrote =
    report.migrations.length > 0 || KINDS.some((kind) => report.summary[kind].imported > 0)
  lines.push(
    !report.applied
      ? "Auth.js import: dry run, nothing written. Run again with --apply to import."
      : wrote
        ? "Auth.js import: applied, in one transaction."
        : "Auth.js import: applied; nothing new to write (every row is already there or left behind).",
  )
  lines.push(`  from:    ${report.source}`)
  lines.push(
    `  into:    ${
      report.target ?? "the same database, beside the Auth.js tables (which are left as they are)"
    }`,
  )
  lines.push(
    `  layout:  ${report.layout.label}${report.layout.tool ? `; ${report.layout.tool} migration history found` : ""}`,
  )
  lines.push(
    `  tables:  ${report.layout.tables.map((t) => `${t.table} (${t.rows} ${t.rows === 1 ? "row" : "rows"})`).join(", ")}`,
  )
  const pending = report.migrations.join(", ")
  lines.push(
    `  Tessera's tables: ${
      !pending
        ? "already there"
        : report.applied
          ? `created (${pending})`
          : `to be created (${pending})`
    }`,
  )
  lines.push("")

  const header = [
    "",
    "Auth.js",
    report.applied ? "imported" : "to import",
    "already there",
    "left behind",
  ]
  const rows = KINDS.map((kind) => {
    const s = report.summary[kind]
    const left = s.dropped.reduce((n, d) => n + d.count, 0)
    return [LABELS[kind], String(s.found), String(s.imported), String(s.present), String(left)]
  })
  lines.push(...table([header, ...rows]).map((l) => `  ${l}`.trimEnd()))

  const dropped = KINDS.flatMap((kind) =>
    report.summary[kind].dropped.map((d) => {
      const examples = d.examples.length
        ? `: ${d.examples.join(", ")}${d.count > d.examples.length ? ", ..." : ""}`
        : ""
      return `  ${LABELS[kind]}: ${d.count} ${d.reason}${examples}`
    }),
  )
  if (dropped.length) lines.push("", "Left behind:", ...dropped)
  if (report.conflicts.length)
    lines.push("", "Conflicts:", ...report.conflicts.map((c) => `  ${c}`))
  if (report.conversions.length)
    lines.push("", "Converted:", ...report.conversions.map((c) => `  ${c}`))
  const extra = report.layout.tables.flatMap((t) => t.extra.map((c) => `${t.table}.${c}`))
  if (extra.length)
    lines.push(
      "",
      "Columns with no place in Tessera's tables (not carried; they stay in the Auth.js tables):",
      `  ${extra.join(", ")}`,
    )
  // Each line as built holds no line break of its own: any control character came from a value.
  return `${lines.map(printable).join("\n")}\n`
}
