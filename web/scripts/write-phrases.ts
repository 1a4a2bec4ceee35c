/*
 * Writes the phrase breaks of the public pages (web/src/lib/phrases-public.ts), of the member area
 * (web/src/lib/phrases-member.ts) and of the staff-only screens (web/src/lib/phrases-staff.ts) from the catalogue
 * with BudouX. Run `npm run phrases -w @enishi/web` after
 * changing the catalogue; a test (features/entry/phrases.test.tsx) fails while the data is out of date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { computePhrases, phrasesModule } from '../src/features/entry/utils/compute-phrases.js';

for (const [which, path] of [
  ['public', '../src/lib/phrases-public.ts'],
  ['member', '../src/lib/phrases-member.ts'],
  ['staff', '../src/lib/phrases-staff.ts'],
] as const) {
  const file = fileURLToPath(new URL(path, import.meta.url));
  const options = { ...(await resolveConfig(file)), filepath: file };
  writeFileSync(file, await format(phrasesModule(computePhrases(which), which), options));
  console.warn(`wrote ${file}`);
}
