import {
  can,
  csvFile,
  jaMember,
  MEMBER_FIELD_RULES,
  MEMBER_IMPORT_BYTES_MAX,
  MEMBER_IMPORT_ROWS_MAX,
  MEN_RANKS,
  MEN_RANKS_LABELS,
  NEW_USER_ROLE,
  type ImportColumn,
  type ImportRow,
  uncsvCell,
} from '@enishi/contract';
import type { z } from 'zod';
import { badRequest, forbidden } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { decodeCsvBytes, parseCsv } from '../lib/csv.js';
import { firstPasswordHash, newFirstPassword } from '../lib/first-passwords.js';
import type { NewUserRecord } from '../db/schema.js';
import type { Delivery } from '../bus/delivery.js';
import type { MemberImportRepository } from '../repositories/member-import-repository.js';
import type { Actor } from './session-service.js';

const t = jaMember.memberImport;
type Kind = 'men' | 'women';

/** The file's columns, in the export's order (member-table-presenter.ts `presentMemberCsv`). */
const columnsOf = (kind: Kind): ImportColumn[] =>
  kind === 'men'
    ? ['name', 'name_kana', 'id', 'rank', 'introducer']
    : ['name', 'name_kana', 'id', 'introducer'];

/** A row that passed: the values to store. */
interface GoodRow {
  loginId: string;
  name: string;
  nameKana: string | null;
  rank: number;
  introducer: string;
}

/** A rank cell: the label the export writes (一般, プラチナ…) or its number 1 to 6. */
function rankOf(cell: string): number | null {
  const text = cell.trim();
  const byLabel = MEN_RANKS_LABELS.find((item) => item.label === text && item.code > 0);
  if (byLabel) return byLabel.code;
  const code = /^\d$/.test(text) ? Number(text) : NaN;
  return (MEN_RANKS as readonly number[]).includes(code) ? code : null;
}

/** The first Japanese message of a field rule, or the value it gives. */
function checkCell<S extends z.ZodType>(rule: S, value: string): { value: z.output<S> } | { error: string } {
  const result = rule.safeParse(value);
  return result.success ? { value: result.data } : { error: result.error.issues[0]?.message ?? '' };
}

/**
 * The member tables' CSV import (product.md §2.8): the file in the export's format is read (UTF-8 or
 * Shift_JIS), each cell checked by the member form's rules, IDs against each other and the registered
 * ones; the import writes every row or none, each member with a first password shown once.
 */
export class MemberImportService {
  constructor(
    private readonly records: MemberImportRepository,
    private readonly clock: Clock,
    private readonly delivery?: Delivery,
  ) {}

  /** Every row of the file with its errors per cell; 400 for a file that cannot be read as a whole. */
  async preview(actor: Actor, kind: Kind, file: string): Promise<{ rows: ImportRow[]; good: GoodRow[] }> {
    if (!can(actor, 'member.manage', { role: NEW_USER_ROLE[kind] })) throw forbidden();
    const table = this.read(kind, file);
    const columns = columnsOf(kind);
    const taken = await this.records.takenLoginIds(table.map((cells) => cells[columns.indexOf('id')] ?? ''));
    const firstLine = new Map<string, number>();
    const rows: ImportRow[] = [];
    const good: GoodRow[] = [];
    table.forEach((cellsOfRow, index) => {
      const line = index + 2;
      const cells = Object.fromEntries(
        columns.map((column, at) => [column, uncsvCell(cellsOfRow[at] ?? '')]),
      ) as ImportRow['cells'];
      const errors: ImportRow['errors'] = {};
      const name = checkCell(MEMBER_FIELD_RULES.name, cells.name);
      const kana = checkCell(MEMBER_FIELD_RULES.name_kana, cells.name_kana);
      const id = checkCell(MEMBER_FIELD_RULES.id, cells.id.trim());
      const introducer = checkCell(MEMBER_FIELD_RULES.introducer, cells.introducer);
      const rank = kind === 'men' ? rankOf(cells.rank ?? '') : 0;
      if ('error' in name) errors.name = name.error;
      if ('error' in kana) errors.name_kana = kana.error;
      if ('error' in id) errors.id = id.error;
      else {
        const key = id.value.toLowerCase();
        const earlier = firstLine.get(key);
        if (earlier !== undefined) errors.id = t.errors.duplicateInFile(earlier);
        else if (taken.has(key)) errors.id = jaMember.members.errors.idTaken;
        if (earlier === undefined) firstLine.set(key, line);
      }
      if ('error' in introducer) errors.introducer = introducer.error;
      if (rank === null) errors.rank = t.errors.badRank;
      if (cellsOfRow.length !== columns.length) errors.name ??= t.errors.badColumns(columns.length);
      rows.push({ line, cells, errors });
      if (
        Object.keys(errors).length === 0 &&
        'value' in name &&
        'value' in kana &&
        'value' in id &&
        'value' in introducer
      ) {
        good.push({
          loginId: id.value,
          name: name.value,
          nameKana: kana.value,
          rank: rank ?? 0,
          introducer: introducer.value,
        });
      }
    });
    return { rows, good };
  }

  /**
   * Registers every row, or none when one has an error (400 naming how many): one transaction, with one audit
   * row naming the kind and the count. Returns the first passwords' file (ID, 初回パスワード).
   */
  async import(actor: Actor, kind: Kind, file: string): Promise<{ count: number; csv: string }> {
    const { rows, good } = await this.preview(actor, kind, file);
    const bad = rows.length - good.length;
    if (bad > 0) throw badRequest(t.errors.hasErrors(bad));
    const now = new Date(this.clock());
    const passwords = good.map(() => newFirstPassword());
    const members: NewUserRecord[] = good.map((row, index) => ({
      loginId: row.loginId,
      passwordHash: firstPasswordHash(passwords[index]!),
      name: row.name,
      nameKana: row.nameKana,
      role: NEW_USER_ROLE[kind],
      rank: kind === 'men' ? row.rank : 0,
      introducer: row.introducer,
      createdAt: now,
      updatedAt: now,
    }));
    const kindLabel = jaMember.members.kinds[kind];
    const written = await this.records.insertAll(members, {
      actorId: actor.uid,
      actorName: actor.name,
      action: 'import',
      targetId: actor.uid,
      targetRole: NEW_USER_ROLE[kind],
      targetName: t.auditTarget(kindLabel, members.length),
      changes: { count: [null, members.length], ids: [null, good.map((row) => row.loginId)] },
      createdAt: now,
    });
    // An ID registered between the check and the write: nothing was written; the preview names it again.
    if (!written) throw badRequest(jaMember.members.errors.idTaken);
    // The new members' desk talks join the staff's room lists.
    await this.delivery?.roomListsChanged({ uids: [], staff: true });
    return {
      count: members.length,
      csv: csvFile(
        t.passwordsHeader,
        good.map((row, index) => [row.loginId, passwords[index]!]),
      ),
    };
  }

  /** The file's data rows (its header checked and left out); 400 for one that cannot be read. */
  private read(kind: Kind, file: string): string[][] {
    const bytes = Buffer.from(file, 'base64');
    if (bytes.length > MEMBER_IMPORT_BYTES_MAX) throw badRequest(t.errors.tooLarge);
    const text = decodeCsvBytes(bytes);
    const table = text === null ? null : parseCsv(text);
    if (!table) throw badRequest(t.errors.unreadable);
    const f = jaMember.members.fields;
    const header = columnsOf(kind).map((column) => f[column]);
    const [first, ...data] = table;
    if (!first || first.map((cell) => cell.trim()).join(',') !== header.join(','))
      throw badRequest(t.errors.badHeader(header.join(',')));
    if (data.length === 0) throw badRequest(t.errors.empty);
    if (data.length > MEMBER_IMPORT_ROWS_MAX) throw badRequest(t.errors.tooManyRows);
    return data;
  }
}
