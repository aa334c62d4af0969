// The link check of `npm run check:docs`: each relative link of a Markdown file names a file
// that exists and, for a `#fragment` into a Markdown file, a heading that does. Links with a
// scheme (https://github.com/tessera-auth/tessera/blob/main/docs/..., mailto:) are not followed:
// the packages' READMEs use those where npm shows them, and the public-docs tests check the
// `@see` ones.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replaceAll(" ", "-")

/** The text outside fenced code blocks, where a `](x)` is code, not a link. */
const withoutCode = (text) => text.replace(/^```[\s\S]*?^```/gm, "")

function anchorsOf(file) {
  const headings = withoutCode(readFileSync(file, "utf8")).matchAll(/^#{1,6} (.+)$/gm)
  return new Set([...headings].map(([, heading]) => slug(heading)))
}

/**
 * The broken relative links of `files` (paths relative to `root`), each as
 * `{ file, link, problem }`, in the order they appear.
 *
 * @param {string} root The repository's root.
 * @param {string[]} files The Markdown files to check.
 * @returns {{ file: string, link: string, problem: string }[]}
 */
export function brokenLinks(root, files) {
  const broken = []
  for (const file of files) {
    const text = withoutCode(readFileSync(join(root, file), "utf8"))
    for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(link)) continue
      const [path, anchor] = link.split("#")
      const target = path ? join(root, dirname(file), path) : join(root, file)
      let problem
      if (!existsSync(target)) problem = "no such file"
      else if (anchor && target.endsWith(".md") && !anchorsOf(target).has(anchor))
        problem = "no such heading"
      if (problem) broken.push({ file, link, problem })
    }
  }
  return broken
}

/** The README and the guide: the files whose samples `check:docs` type-checks too. */
export function guideMarkdown(root) {
  return [
    "README.md",
    ...readdirSync(join(root, "docs"))
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => `docs/${name}`),
  ]
}

/** The packages' own READMEs: npm shows them on each package's page, and they link the guide. */
export function packageReadmes(root) {
  return readdirSync(join(root, "packages"))
    .map((dir) => `packages/${dir}/README.md`)
    .filter((file) => existsSync(join(root, file)))
    .sort()
}

/** Every Markdown file whose links are checked. */
export function linkedMarkdown(root) {
  return [
    ...guideMarkdown(root),
    "CONTRIBUTING.md",
    "SECURITY.md",
    "CHANGELOG.md",
    ...packageReadmes(root),
  ]
}
