import {
  SETTING_PAGE_SIZE,
  slotInstant,
  slotLabel,
  slotOf,
  type SettingOverlapRow,
  type SettingStatus,
  type SiteKind,
  type SettingUpdateBody,
  jaMember,
  can,
  scope,
} from '@enishi/contract';
import type { z } from 'zod';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import type {
  AskedWoman,
  SettingDecision,
  SettingRepository,
  SettingRequestRow,
} from '../repositories/setting-repository.js';
import { around, overlapRefusal, overlapRows, overrideAudit, peopleOf, slotsOf } from './setting-overlaps.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { ConversationService } from './conversation-service.js';
import type { MessagePosting } from './message-posting.js';
import type { Delivery } from '../bus/delivery.js';
import type { Actor } from './session-service.js';
import type { EnquiryService } from './enquiry-service.js';

export interface SettingInput {
  women_id: number;
  preferred1: string;
  preferred2: string;
  preferred3: string;
  note?: string;
}

type SettingUpdate = Omit<z.output<typeof SettingUpdateBody>, 'ssid'>;

/** Whether a woman may be asked for by this man (site kinds, product.md §19); answered by the women's list. */
export type MayBrowse = (actor: Actor, kind: SiteKind, womanId: number) => Promise<boolean>;

/**
 * Setting requests (product.md §18): a man asks, staff arrange one slot (the pair's group talk made or reused,
 * an announcement posted there once) or decline (the man told in his desk talk), the man may cancel.
 */
export class SettingService {
  constructor(
    private readonly settings: SettingRepository,
    private readonly users: UserRepository,
    private readonly conversations: ConversationService,
    private readonly posting: MessagePosting,
    private readonly mayBrowse: MayBrowse,
    private readonly clock: Clock,
    private readonly delivery: Delivery | null = null,
    /** The club's external enquiry service: when set, the women asked for are its women (§19.11). */
    private readonly enquiry: Pick<EnquiryService, 'woman'> | null = null,
  ) {}

  /** Tells every staff socket, on every instance, after the commit (product.md §2.8). */
  private async tellStaff(id: number, status: SettingStatus, man: string, woman: string): Promise<void> {
    await this.delivery?.toAudience({ memberIds: [], staff: true }, 'setting.changed', {
      id,
      status,
      man,
      woman,
    });
  }

  async add(actor: Actor, kind: SiteKind, input: SettingInput): Promise<number> {
    if (!can(actor, 'setting.request')) throw forbidden();
    const now = this.clock();
    const preferred = [input.preferred1, input.preferred2, input.preferred3].map((slot) =>
      slotInstant(slot)!,
    );
    if (preferred.some((instant) => instant.getTime() <= now))
      throw badRequest(jaMember.setting.errors.slotPast);
    const woman = await this.askedWoman(actor, kind, input.women_id);
    const created = await this.settings.create({
      manId: actor.uid,
      woman: 'uid' in woman ? { uid: woman.uid } : woman,
      preferred: preferred as [Date, Date, Date],
      note: input.note ?? '',
      now: new Date(now),
    });
    await this.tellStaff(created.id, 'requested', actor.name, woman.name);
    return created.id;
  }

  /**
   * The woman of a new request. With the enquiry service, the women's list shows its women, so the id is
   * the service's: she is asked for by her id there and the name it gives (decision 023); its 404 and
   * failures answer as they are. Otherwise a woman of this database that the man's site shows him.
   */
  private async askedWoman(actor: Actor, kind: SiteKind, id: number): Promise<AskedWoman & { name: string }> {
    if (this.enquiry) {
      const woman = await this.enquiry.woman(actor, kind, id);
      return { enquiryId: woman.id, name: woman.name };
    }
    const woman = await this.users.findById(id);
    const aWoman = woman !== null && can(actor, 'women.browse', { uid: woman.id, role: woman.role });
    if (!woman || !aWoman || !(await this.mayBrowse(actor, kind, woman.id))) {
      throw badRequest(jaMember.setting.errors.notWoman);
    }
    return { uid: woman.id, name: woman.name };
  }

  /**
   * The requests `actor` may read (setting.read's scope: staff every request, a man his own, a woman hers
   * once arranged, product.md §18.2); one who reads every request may narrow it to one member's.
   */
  async list(actor: Actor, status: SettingStatus | undefined, page: number, member?: number) {
    if (!can(actor, 'setting.read')) throw forbidden();
    const readable = scope(actor, 'setting.read');
    const query = { scope: readable, status, member: readable.all ? member || undefined : undefined };
    const [rows, requested] = await Promise.all([
      this.settings.list(query, page * SETTING_PAGE_SIZE, SETTING_PAGE_SIZE + 1),
      can(actor, 'setting.decide') ? this.settings.countRequested() : Promise.resolve(0),
    ]);
    const shown = rows.slice(0, SETTING_PAGE_SIZE);
    return {
      rows: can(actor, 'setting.decide') ? await this.withOverlaps(shown) : shown,
      isEnd: rows.length <= SETTING_PAGE_SIZE,
      requested,
    };
  }

  /** Staff's waiting requests with the confirmed settings their slots overlap (product.md §18.5). */
  private async withOverlaps(
    rows: SettingRequestRow[],
  ): Promise<(SettingRequestRow & { overlaps?: SettingOverlapRow[] })[]> {
    const waiting = rows.filter((row) => row.status === 'requested');
    if (waiting.length === 0) return rows;
    const { from, to } = around(slotsOf(waiting));
    const confirmed = await this.settings.settingsNear(peopleOf(waiting), from, to);
    return rows.map((row) =>
      row.status === 'requested' ? { ...row, overlaps: overlapRows(row, confirmed).rows } : row,
    );
  }

  /**
   * Confirms one slot unless it overlaps a confirmed setting of the same man or woman (product.md §18.5): then
   * a 409 naming it, or with `reason` the confirmation and an audit row of it, checked and written under the
   * repository's lock.
   */
  private async arrange(
    actor: Actor,
    request: SettingRequestRow,
    decision: SettingDecision,
    reason?: string,
  ) {
    const chosen = { ...request, slot: decision.slot ?? null };
    const instant = slotsOf([chosen])[(chosen.slot ?? 1) - 1]!;
    const [man, woman] = reason
      ? await Promise.all([
          this.users.findById(request.manId),
          request.womanId === null ? null : this.users.findById(request.womanId),
        ])
      : [null, null];
    return this.settings.arrange(request.id, decision, {
      people: peopleOf([request]),
      ...around([instant]),
      verdict: (confirmed) => {
        const { rows } = overlapRows(chosen, confirmed, [chosen.slot ?? 1]);
        if (rows.length === 0) return null;
        if (!reason) throw overlapRefusal(request, rows);
        const person = (rows[0]!.who === 'woman' ? woman : man) ?? man;
        const target = person
          ? { uid: person.id, role: person.role, name: person.name }
          : { uid: request.manId, role: 0, name: request.manName ?? '' };
        return overrideAudit(actor, chosen, target, rows, reason);
      },
    });
  }

  async update(actor: Actor, input: SettingUpdate): Promise<SettingRequestRow> {
    const request = await this.settings.findById(input.id);
    if (!request || !this.sees(actor, request)) throw notFound();
    if (input.status === 'cancelled') {
      if (!can(actor, 'setting.request')) throw forbidden();
    } else if (!can(actor, 'setting.decide')) throw forbidden();
    if (request.status !== 'requested') throw notRequested();

    const now = new Date(this.clock());
    const decision: SettingDecision = {
      status: input.status,
      ...(input.status === 'arranged' ? { slot: input.slot, place: input.place } : {}),
      ...(input.status === 'declined' ? { reason: input.reason } : {}),
      decidedBy: actor.uid,
      now,
    };
    const decided =
      input.status === 'arranged'
        ? await this.arrange(actor, request, decision, input.overlap_reason || undefined)
        : await this.settings.decide(
            request.id,
            decision,
            input.status === 'cancelled' ? actor.uid : undefined,
          );
    if (!decided) throw notRequested();
    const row = { ...request, ...decided };
    await this.tellStaff(row.id, row.status, row.manName ?? '', row.womanName ?? '');
    if (decided.status === 'arranged') return this.announce(actor, row, now);
    if (decided.status === 'declined') await this.tellMan(actor, row, now);
    return row;
  }

  private sees(actor: Actor, request: SettingRequestRow): boolean {
    return can(actor, 'setting.read', { setting: request });
  }

  /**
   * The pair's group talk is reused or made, and the date, time and place are announced there once. A woman
   * only the enquiry service knows has no account here: the man reads it in his desk talk (decision 023).
   */
  private async announce(actor: Actor, row: SettingRequestRow, now: Date): Promise<SettingRequestRow> {
    const conversationId =
      row.womanId === null
        ? await this.settings.findDeskTalk(row.manId)
        : ((await this.settings.findGroupTalk(row.manId, row.womanId)) ??
          (await this.conversations.createGroupTalk(actor, { manId: row.manId, womanId: row.womanId })).id);
    if (conversationId === null) return row;
    await this.settings.setConversation(row.id, conversationId);
    const slot = [row.preferred1, row.preferred2, row.preferred3][(row.slot ?? 1) - 1]!;
    const date = slotLabel(slotOf(slot));
    await this.post(
      actor,
      conversationId,
      row.womanId === null
        ? jaMember.setting.arrangedMessage(row.womanName ?? '', date, row.place ?? '')
        : jaMember.setting.announcement(date, row.place ?? ''),
      {
        announce: row.womanId !== null,
        clientId: settingClientId(row.id, 'arranged'),
        now,
      },
    );
    return { ...row, conversationId };
  }

  /** The man reads the refusal and its reason in his desk talk. */
  private async tellMan(actor: Actor, row: SettingRequestRow, now: Date): Promise<void> {
    const desk = await this.settings.findDeskTalk(row.manId);
    if (desk === null) return;
    await this.post(actor, desk, jaMember.setting.declinedMessage(row.womanName ?? '', row.reason ?? ''), {
      announce: false,
      clientId: settingClientId(row.id, 'declined'),
      now,
    });
  }

  private async post(
    actor: Actor,
    conversationId: number,
    body: string,
    options: { announce: boolean; clientId: string; now: Date },
  ): Promise<void> {
    await this.posting.post(
      {
        conversationId,
        senderId: actor.uid,
        mayWriteAnywhere: true,
        body,
        images: [],
        replyToId: null,
        announce: options.announce,
        messageType: 0,
        clientId: options.clientId,
        now: options.now,
        marksRead: true,
      },
      actor,
      null,
    );
  }
}

/** Decided already (or by someone else just now): 409. */
const notRequested = () => new AppError('conflict', jaMember.setting.errors.notRequested);

/**
 * The client id of the message a decision posts: fixed per request and outcome, so that a retried decision
 * can never post it twice (a sender's client ids are unique, product.md §15.2).
 */
function settingClientId(id: number, outcome: 'arranged' | 'declined'): string {
  const tail = id.toString(16).padStart(12, '0');
  return `5e771e00-0000-4000-8${outcome === 'arranged' ? '0' : '1'}00-${tail}`;
}
