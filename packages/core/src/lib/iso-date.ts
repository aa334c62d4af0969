/**
 * A time as `Date.prototype.toISOString` writes it, by arithmetic.
 *
 * Why: the first date a process formats makes V8 set up its date cache and
 * time zone, about 1 ms (13 ms with `TZ=""`), and a session check on a cold
 * start formats one (the session's `expires`) while needing only UTC digits.
 * @module
 */

const DAY_MS = 86_400_000
const pad = (value: number, width: number) => String(value).padStart(width, "0")

/**
 * `new Date(ms).toISOString()` for whole milliseconds in the years 0000-9999
 * (the days to a civil date as in Howard Hinnant's `civil_from_days`); other
 * times go to `Date` itself.
 */
export function isoString(ms: number): string {
  const days = Math.floor(ms / DAY_MS)
  const shifted = days + 719_468 // days since 0000-03-01
  const era = Math.floor(shifted / 146_097)
  const dayOfEra = shifted - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1_460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  )
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  if (!Number.isSafeInteger(ms) || year < 0 || year > 9_999) return new Date(ms).toISOString()
  const time = ms - days * DAY_MS
  return (
    `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T` +
    `${pad(Math.floor(time / 3_600_000), 2)}:${pad(Math.floor(time / 60_000) % 60, 2)}:` +
    `${pad(Math.floor(time / 1_000) % 60, 2)}.${pad(time % 1_000, 3)}Z`
  )
}
