/*
 * The member and staff phrase tables travel packed (product.md §2.7): each text by a 32-bit FNV-1a hash of
 * it instead of the text itself (the catalogue already carries the text), its break offsets as two base-36
 * digits each. About half the bytes of a table keyed by the text. The script that writes the tables checks
 * that no two texts share a hash.
 */

/** FNV-1a over the UTF-16 code units, in base 36. */
export function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/** `hash:offsets` entries, one a line, sorted by hash. */
export function packPhrases(phrases: Readonly<Record<string, readonly number[]>>): string {
  const entries = Object.entries(phrases).map(
    ([text, breaks]) => `${hashText(text)}:${breaks.map((at) => at.toString(36).padStart(2, '0')).join('')}`,
  );
  const hashes = new Set(entries.map((entry) => entry.split(':')[0]));
  if (hashes.size !== entries.length) throw new Error('two phrase texts share a hash: change hashText');
  return entries.sort().join('\n');
}

export function unpackPhrases(packed: string): Map<string, number[]> {
  const table = new Map<string, number[]>();
  for (const entry of packed.split('\n')) {
    const [hash, offsets = ''] = entry.split(':');
    const breaks: number[] = [];
    for (let at = 0; at < offsets.length; at += 2) breaks.push(parseInt(offsets.slice(at, at + 2), 36));
    if (hash) table.set(hash, breaks);
  }
  return table;
}
