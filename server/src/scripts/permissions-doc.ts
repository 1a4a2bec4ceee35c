/*
 * Writes docs/permissions.md, the permission matrix (product.md §6), from the code: `npm run permissions`.
 * permission-matrix.test.ts fails while the file differs from what this would write.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { declaredCalls, renderPermissionsDoc } from './permission-matrix.js';

export const PERMISSIONS_DOC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../docs/permissions.md',
);

const calls = await declaredCalls();
writeFileSync(PERMISSIONS_DOC, renderPermissionsDoc(calls));
console.log(`wrote ${path.relative(process.cwd(), PERMISSIONS_DOC)}: ${calls.length} calls`);
