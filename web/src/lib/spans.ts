/** Spans and sizes the server gives as numbers (api/rules.ts), in the words people read. The web writes no number of
 *  hours, days or megabytes itself. */

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`

/** '1 hour', '24 hours', '48 hours', then whole days from three: '3 days', '7 days'. */
export function hoursText(hours: number): string {
  return hours >= 72 && hours % 24 === 0 ? plural(hours / 24, 'day') : plural(hours, 'hour')
}

export const daysText = (days: number) => plural(days, 'day')

/** '5 MB' (a whole number of megabytes), '2.5 MB' */
export function megabytesText(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
}

/** 'JPEG, PNG or WebP' */
export function orList(names: string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`
}

/** A file's size as people read it: bytes, KB, then MB with one decimal. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
