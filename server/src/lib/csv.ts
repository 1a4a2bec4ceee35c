/*
 * Reading a CSV file a club sends in (the member import, product.md §2.8): the bytes as Excel saves them, and
 * RFC 4180 rows. Writing one is the contract's (`csvFile`), shared with the browser.
 */

/**
 * The text of a CSV file as Excel saves it (product.md §2.8): UTF-8 with or without a byte order mark, else
 * Shift_JIS (Excel in Japan); null when it is neither.
 */
export function decodeCsvBytes(bytes: Uint8Array): string | null {
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  try {
    return utf8.decode(bytes);
  } catch {
    // Not UTF-8: Shift_JIS (Windows-31J), as Excel in Japan saves "CSV (コンマ区切り)".
  }
  try {
    return new TextDecoder('shift_jis', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The rows of a CSV text (RFC 4180: quoted cells may hold commas, doubled quotes and line breaks; CRLF or LF
 * line ends). Empty lines are left out; null when a quote is never closed.
 */
export function parseCsv(text: string): string[][] | null {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(cell);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    cell = '';
  };
  while (i < text.length) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else quoted = false;
      } else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      endRow();
      i += 1;
    } else if (char === '\n' || char === '\r') endRow();
    else cell += char;
    i += 1;
  }
  if (quoted) return null;
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}
