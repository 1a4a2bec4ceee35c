// @vitest-environment jsdom
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { jaMember } from '@enishi/contract';
import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { computePhrases } from './utils/compute-phrases';
import { loadPhraseBreaks } from '@/lib/phrase-breaks';
import { hashText, packPhrases, unpackPhrases } from '@/lib/phrase-pack';
import { PACKED_PHRASES as MEMBER_PACKED } from '@/lib/phrases-member';
import { PACKED_PHRASES as STAFF_PACKED } from '@/lib/phrases-staff';
import { Phrases } from '@/components/ui/phrases';

// jsdom gives import.meta.url an http scheme: the file's own path, two folders up.
const MEMBER = unpackPhrases(MEMBER_PACKED);
const STAFF = unpackPhrases(STAFF_PACKED);
const src = join(dirname(new URL(import.meta.url).pathname), '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.tsx') && !entry.name.includes('.test.') ? [path] : [];
  });
}

/** A paragraph (or a note, hint or lead) whose whole content is a catalogue text, shown as it is. */
const RAW_CATALOGUE_TEXT =
  /<(p|span)\b[^>]*className="[^"]*(?:lead|note|hint|empty|notice)[^"]*"[^>]*>\s*\{\s*((?:ja|jaMember|jaSecondStep|t|p)\.[\w.[\]]+)\s*\}\s*<\/\1>|<p\b[^>]*>\s*\{\s*((?:ja|jaMember|jaSecondStep|t|p)\.[\w.[\]]+|errorMessage\([\w.]+\))\s*\}\s*<\/p>/g;

describe('phrase breaks on the member and staff screens (product.md §2.4)', () => {
  it('of the staff-only sections are what BudouX finds there, and only there (else: npm run phrases)', () => {
    expect(STAFF_PACKED).toBe(packPhrases(computePhrases('staff')));
    // Loaded together for staff: no text of one table may share a hash with a text of the other.
    expect([...STAFF.keys()].filter((hash) => MEMBER.has(hash))).toEqual([]);
    // The staff's sentences reach no member: they are not in the members' table.
    for (const text of [jaMember.audit.lead, jaMember.desk.shortcuts, jaMember.groups.lead]) {
      expect(STAFF.get(hashText(text)), text).toBeDefined();
      expect(MEMBER.get(hashText(text)), text).toBeUndefined();
    }
  });

  it('are used by every screen: no paragraph, lead, note, hint or empty state shows a catalogue text unbroken', () => {
    const files = sources(src);
    expect(files.length).toBeGreaterThan(100);
    const raw = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(RAW_CATALOGUE_TEXT)].map(
        (match) => `${relative(src, file)}: ${match[2] ?? match[3]}`,
      ),
    );
    expect(raw).toEqual([]);
  });

  it('load with the first text that needs them: a member’s table, then the staff’s', async () => {
    const { container } = render(<Phrases text={jaMember.audit.lead} />);
    await act(() => loadPhraseBreaks('member'));
    // A member's table does not know the audit log's sentence: it stays as it is.
    expect(container.querySelector('wbr')).toBeNull();
    expect(container.textContent).toBe(jaMember.audit.lead);

    await act(() => loadPhraseBreaks('staff'));
    const shown = container.querySelector('.phrases')!;
    expect(shown.querySelectorAll('wbr').length).toBe(STAFF.get(hashText(jaMember.audit.lead))!.length);
    expect(shown.textContent).toBe(jaMember.audit.lead);

    const member = render(<Phrases text={jaMember.news.empty} />);
    expect(member.container.querySelectorAll('wbr').length).toBe(
      MEMBER.get(hashText(jaMember.news.empty))?.length ?? 0,
    );
  });
});
