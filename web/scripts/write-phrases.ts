/*
 * Writes the phrase breaks of the public pages (web/src/features/entry/phrases.ts) from the catalogue with
 * BudouX. Run `npm run phrases -w @enishi/web` after changing ja.enter or ja.intro; a test
 * (features/entry/phrases.test.tsx) fails while the data is out of date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { computePhrases, phrasesModule } from '../src/features/entry/utils/compute-phrases.js';

const file = fileURLToPath(new URL('../src/features/entry/phrases.ts', import.meta.url));
const options = { ...(await resolveConfig(file)), filepath: file };
writeFileSync(file, await format(phrasesModule(computePhrases()), options));
console.warn(`wrote ${file}`);
