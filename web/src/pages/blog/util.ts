/** 'creator-tips' -> 'creator tips' (the spec shows hyphens as spaces). */
export function categoryLabel(category: string) {
  return category.replace(/-/g, ' ')
}

export function formatViews(n: number) {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'view' : 'views'}`
}
