/*
 * CSV for Excel (product.md §2.8): the member export on the server, the reports in the browser: UTF-8 with a byte order mark, CRLF line ends, RFC 4180 quoting (a cell with
 * a comma, a double quote or a line break is quoted, its quotes doubled), and a cell that a spreadsheet would
 * run as a formula (starting with = + - @, a tab or a carriage return) prefixed with ' so it stays text.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole file: the header row, then one line per row, each line ending in CRLF. */
export function csvFile(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [header, ...rows].map((cells) => `${cells.map(csvCell).join(',')}\r\n`);
  return `\uFEFF${lines.join('')}`;
}

/** A cell as the export wrote it: a formula-looking value was prefixed with ' (csvCell), taken off again. */
export const uncsvCell = (value: string): string => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);
