/*
 * The club's code tables (product.md §9.5): code -> Japanese label. Every table lives in this folder, once;
 * `/api/lookups` serves them together with the club's own lists (companies, media, charge staff) from the
 * database, and the web app shows labels and fills selects from that reply.
 */

/** One entry of a code table. `parent` ties an entry to another table's code (a medium to its company). */
export interface LookupItem {
  code: number;
  label: string;
  parent?: number;
}

/** `labels` numbered from `first` (0 or 1): the usual shape of a code table. */
export function numbered(labels: readonly string[], first = 1): LookupItem[] {
  return labels.map((label, index) => ({ code: index + first, label }));
}

/** The label of a code in a table, or '' when the code is unknown or absent. */
export function lookupLabel(items: readonly LookupItem[], code: number | null | undefined): string {
  if (code === null || code === undefined) return '';
  return items.find((item) => item.code === code)?.label ?? '';
}
