/** 'creator-tips' -> 'creator tips' (the spec shows hyphens as spaces). */
export function categoryLabel(category: string) {
  return category.replace(/-/g, ' ')
}

/** '1,234 views': the digits grouped by hand, as toLocaleString('en-US') groups a count (which builds a number
 *  formatter, loading the locale's data, on every call: once per card). */
export function formatViews(n: number) {
  return `${String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} ${n === 1 ? 'view' : 'views'}`
}
