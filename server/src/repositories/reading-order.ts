import { ilike, like, or, sql, type SQL } from 'drizzle-orm';
import { normaliseReading } from '@enishi/contract';
import { users } from '../db/schema.js';

/*
 * The order and the search of every list of people (product.md §5.7, §11.5): by reading, then by name.
 * Readings are stored in hiragana (the contract's kana.ts), whose code points are in gojūon order, so the
 * byte order of COLLATE "C" is あいうえお order on PGlite (which has no ICU) and PostgreSQL alike, whatever
 * collation the database was made with. A person without a reading comes last.
 */

/** `%text%` for LIKE and ILIKE, with the pattern characters of the text itself taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Reading, then name, then id: in `direction`, people without a reading last either way. */
export function readingOrder(direction: 'asc' | 'desc' = 'asc'): SQL[] {
  const way = direction === 'asc' ? sql`asc` : sql`desc`;
  return [
    sql`${users.nameKana} collate "C" ${way} nulls last`,
    sql`${users.name} collate "C" ${way}`,
    sql`${users.id} ${way}`,
  ];
}

/** People whose name or login ID contains the keyword, or whose reading does in either kana script. */
export function peopleMatching(keyword: string): SQL {
  const pattern = containsPattern(keyword);
  const reading = normaliseReading(keyword);
  return or(
    ilike(users.name, pattern),
    ilike(users.loginId, pattern),
    ...(reading ? [like(users.nameKana, containsPattern(reading))] : []),
  )!;
}
