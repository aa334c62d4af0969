/**
 * Dates as the pages show them, in UTC so server and browser render the same
 * text (no hydration mismatch). One formatter for all: building an
 * `Intl.DateTimeFormat`, which `toLocaleString` does on every call, is slow.
 */
const utc = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
})

export function formatDate(value: Date | string | number): string {
  return `${utc.format(new Date(value))} UTC`
}
