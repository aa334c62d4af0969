/**
 * One module renders form fields (issue 10): `pages/form-fields.ts`. No other source renders a
 * hidden input (the CSRF token, the callback URL, a link's proof) by hand, and what it renders
 * escapes the values it is given.
 */
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { expect, test } from "vitest"
import { csrfField, hiddenField, hiddenFields } from "../../src/pages/form-fields.js"

const src = fileURLToPath(new URL("../../src/", import.meta.url))

test("no module but pages/form-fields.ts renders a hidden field", () => {
  const offenders = readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".generated.ts"))
    .filter((file) => file !== "pages/form-fields.ts")
    .filter((file) => /type="hidden"|name="csrfToken"/.test(readFileSync(`${src}${file}`, "utf8")))
  expect(offenders).toEqual([])
})

test("the fields escape what they carry", () => {
  const rendered = String(
    hiddenFields({ csrfToken: 'a"b', callbackUrl: "https://app.example/?x=<y>&z" }),
  )
  expect(rendered).toContain('name="csrfToken" value="a&quot;b"')
  expect(rendered).toContain('name="callbackUrl" value="https://app.example/?x=&lt;y&gt;&amp;z"')
  expect(String(csrfField("t"))).toContain('<input type="hidden" name="csrfToken" value="t">')
  expect(String(hiddenField("email", "a@b.example"))).toContain('name="email" value="a@b.example"')
})
