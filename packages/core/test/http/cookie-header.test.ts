/**
 * The `Cookie` header parser and `Set-Cookie` writer (http/cookies.ts) answer
 * as the `cookie` package (1.x) does, which they replace.
 */
import { parse, serialize } from "cookie"
import { describe, expect, test } from "vitest"
import { parseCookieHeader, serializeCookie } from "../../src/http/cookies.js"
import type { CookieSerializeOptions } from "@tessera/core/types"

const headers = [
  "",
  "a",
  "a=1",
  "a=1; b=2",
  "  a  =  1  ;b=2;  c = 3 ",
  "a=1; a=2",
  "a=%E2%82%AC; b=%ZZ; c=%",
  'a="quoted"; b=',
  "no-equals; a=1",
  "a=1; no-equals; b=2",
  "=value; a=1",
  "a=1;;; b=2;",
  "__proto__=x; constructor=y; toString=z",
  "a=b=c; d=e",
  "\ta=1\t;\tb=2",
  "tessera.session-token.0=abc; tessera.session-token.1=def",
]

const options: [string, string, CookieSerializeOptions][] = [
  ["a", "1", {}],
  ["a", "", { maxAge: 0, expires: new Date(0), path: "/" }],
  ["a", "x y;z", { httpOnly: true, secure: true, sameSite: "lax" }],
  ["__Host-a", "v", { path: "/", secure: true, sameSite: "strict", partitioned: true }],
  ["a", "v", { sameSite: true, priority: "high", domain: "example.com" }],
  ["a", "v", { sameSite: "None", priority: "Low" as "low", maxAge: 60 }],
  ["a", "€", { encode: (value) => value.replace("€", "EUR") }],
]

const invalid: [string, string, CookieSerializeOptions][] = [
  ["a b", "v", {}],
  ["a", "v", { encode: (value) => `${value};` }],
  ["a", "v", { maxAge: 1.5 }],
  ["a", "v", { domain: "exa mple.com" }],
  ["a", "v", { path: "/;x" }],
  ["a", "v", { expires: new Date(Number.NaN) }],
  ["a", "v", { sameSite: "sometimes" as "lax" }],
  ["a", "v", { priority: "urgent" as "high" }],
]

describe("cookies as the cookie package reads and writes them", () => {
  test.each(headers)("parse %j", (header) => {
    expect({ ...parseCookieHeader(header) }).toEqual({ ...parse(header) })
  })

  test("the parsed record inherits nothing: a cookie named like an Object method is just a cookie", () => {
    const record = parseCookieHeader("a=1; __proto__=x")
    expect("toString" in record).toBe(false)
    expect(record.__proto__).toBe("x")
    expect(Object.getPrototypeOf(Object.getPrototypeOf(record))).toBeNull()
    expect(parseCookieHeader(null)).toEqual({})
  })

  test.each(options)("serialize %s=%j", (name, value, opts) => {
    expect(serializeCookie({ name, value, options: opts })).toBe(serialize(name, value, opts))
  })

  test.each(invalid)("refuses what cookie refuses: %s=%j %j", (name, value, opts) => {
    expect(() => serialize(name, value, opts)).toThrow(TypeError)
    expect(() => serializeCookie({ name, value, options: opts })).toThrow(TypeError)
  })
})
