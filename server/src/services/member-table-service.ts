import { NEW_USER_ROLE, can, type MemberTableSort } from '@enishi/contract';
import type {
  MemberExportItem,
  MemberTableItem,
  MemberTableRepository,
} from '../repositories/member-table-repository.js';
import { readerOf } from '../rules/conversation-rules.js';
import { forbidden } from '../errors.js';
import type { Actor } from './session-service.js';

export type MemberTableQuery = {
  kind: 'men' | 'women' | 'staff';
  keyword: string;
  rank: number;
  entry_type: number;
  sort: MemberTableSort;
  desc: boolean;
  page: number;
  size: number;
};

/**
 * The member tables of the back office (product.md §2.8): one page of men, women or staff with last
 * activity and the viewer's unread count. Men and women: any staff; staff records: the owner alone.
 */
export class MemberTableService {
  constructor(private readonly records: MemberTableRepository) {}

  async page(actor: Actor, query: MemberTableQuery): Promise<{ rows: MemberTableItem[]; total: number }> {
    if (!can(actor, 'member.manage', { role: NEW_USER_ROLE[query.kind] })) throw forbidden();
    return this.records.page(
      {
        kind: query.kind,
        keyword: query.keyword,
        // Ranks: men's on the record, women's in the profile; entry types for members with a profile.
        rank: query.kind === 'staff' ? 0 : query.rank,
        entryType: query.kind === 'staff' ? -1 : query.entry_type,
        sort: query.sort,
        desc: query.desc,
        offset: query.page * query.size,
        limit: query.size,
      },
      readerOf(actor),
    );
  }

  /**
   * Every man or woman the table's filters match, in its order, for the CSV export (product.md §2.8): the
   * same permission as the table, asked of the kind of record exported.
   */
  async exportRows(
    actor: Actor,
    query: Omit<MemberTableQuery, 'page' | 'size'> & { kind: 'men' | 'women' },
  ): Promise<MemberExportItem[]> {
    if (!can(actor, 'member.manage', { role: NEW_USER_ROLE[query.kind] })) throw forbidden();
    return this.records.exportRows(
      {
        kind: query.kind,
        keyword: query.keyword,
        rank: query.rank,
        entryType: query.entry_type,
        sort: query.sort,
        desc: query.desc,
      },
      readerOf(actor),
    );
  }
}
