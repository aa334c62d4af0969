import { expect, test } from "vitest"
import { isoString } from "../../src/lib/iso-date.js"
import { seededRandom } from "../harness/seeded.js"

const DAY = 86_400_000

test("writes every day from 1900 to 2500 as toISOString does, at midnight and the last millisecond", () => {
  const from = Date.UTC(1900, 0, 1) / DAY
  const to = Date.UTC(2500, 0, 1) / DAY
  const mismatches: string[] = []
  for (let day = from; day < to; day++) {
    for (const ms of [day * DAY, day * DAY + DAY - 1, day * DAY + 45_296_789]) {
      const expected = new Date(ms).toISOString()
      if (isoString(ms) !== expected) mismatches.push(`${ms}: ${isoString(ms)} != ${expected}`)
    }
  }
  expect(mismatches).toEqual([])
})

test("agrees with toISOString on random times, and leaves the years outside 0000-9999 to Date", () => {
  const random = seededRandom(20261124)
  const samples = Array.from({ length: 20_000 }, () => Math.floor((random() * 2 - 1) * 8.64e15))
  const edges = [0, -1, Date.UTC(0, 0, 1) - 1, Date.UTC(9999, 11, 31, 23, 59, 59, 999)]
  edges.push(Date.UTC(10000, 0, 1), -62_167_219_200_000, -62_167_219_200_001, 1.5, 8.64e15)
  for (const ms of [...samples, ...edges]) {
    expect({ ms, iso: isoString(ms) }).toEqual({ ms, iso: new Date(ms).toISOString() })
  }
})
