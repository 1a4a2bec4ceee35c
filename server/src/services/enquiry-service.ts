import { createHmac } from 'node:crypto';
import {
  can,
  WOMAN_PUBLIC_FIELDS,
  jaMember,
  type EntryDetailReply,
  type EntryRow,
  type SiteKind,
} from '@enishi/contract';
import { z } from 'zod';
import type { EnquiryConfig } from '../config.js';
import { AppError, forbidden, notFound } from '../errors.js';
import {
  DetailReply,
  FavoriteItem,
  FavoriteReply,
  ListReply,
  numbers,
  ServiceEntry,
} from './enquiry-replies.js';
import type { Actor } from './session-service.js';
import type { EntryListInput } from './women-service.js';

/*
 * The club's external enquiry service (product.md §19.11, SPEC §3 and §7): with ENQUIRY_SERVICE_URL set, the
 * women's list, a woman's detail and a man's favourites come from it instead of this server's database.
 * Calls: POST /api/entrylist {ssid: settingSession, token, site, type, page, perPage, query}, POST /api/entry
 * {ssid, token, site, userId}, POST /member/getFavorite {userId, …} and /member/updateFavorite
 * {userId, data: {id, flg}, …}. Its failures become Japanese errors with 502 or 504, never an empty list.
 */

const e = jaMember.women.errors;

const mayBrowse = (actor: Actor): boolean => can(actor, 'women.browse');
/** Where a malformed row of the service is told: the request's log. */
export type RowLog = { warn: (detail: object, message: string) => void };
const quiet: RowLog = { warn: () => {} };
/** The length of setting_requests.enquiry_woman_name. */
const SETTING_WOMAN_NAME_MAX = 100;

export class EnquiryService {
  private readonly origin: string;

  constructor(private readonly config: EnquiryConfig) {
    this.origin = new URL(config.url).origin;
  }

  /**
   * The man's `settingSession` as the service sees it: a stable pseudonym of his uid (HMAC with the club's
   * token), never this app's session or login ID.
   */
  private settingSession(actor: Actor): string {
    return createHmac('sha256', `enishi-enquiry:${this.config.token}`)
      .update(String(actor.uid))
      .digest('base64url');
  }

  private async post(path: string, body: Record<string, unknown>): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.config.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new AppError('gateway-timeout', e.serviceTimeout);
      }
      throw new AppError('bad-gateway', e.serviceDown);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw notFound();
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new AppError('bad-gateway', response.status >= 500 ? e.serviceDown : e.serviceRefused);
    }
    try {
      return (await response.json()) as unknown;
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new AppError('gateway-timeout', e.serviceTimeout);
      }
      throw new AppError('bad-gateway', e.serviceBroken);
    }
  }

  private parse<T>(schema: z.ZodType<T>, value: unknown): T {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new AppError('bad-gateway', e.serviceBroken);
    return parsed.data;
  }

  private common(actor: Actor, kind: SiteKind) {
    return { ssid: this.settingSession(actor), token: this.config.token, site: kind };
  }

  /** A picture of the service's own origin, else none (the CSP allows that origin's images alone). */
  private picture(url: string | null | undefined): string | null {
    if (!url) return null;
    try {
      return new URL(url, this.config.url).origin === this.origin ? new URL(url, this.config.url).href : null;
    } catch {
      return null;
    }
  }

  private card(entry: ServiceEntry, favorites: Set<number>): EntryRow {
    return {
      id: entry.id,
      name: entry.name,
      age: entry.age ?? null,
      area: numbers(entry.area_id)[0] ?? null,
      prefecture: null,
      height: entry.height ?? null,
      bust: entry.bust ?? null,
      cup: entry.cup ?? null,
      women_rank: entry.rank ?? 0,
      photo: this.picture(entry.photo ?? entry.photos?.[0]),
      favorite: favorites.has(entry.id),
    };
  }

  /** The rows that are entries; each other one is logged (its place, id and what was wrong) and left out. */
  private entries(rows: unknown[], log: RowLog): ServiceEntry[] {
    return rows.flatMap((row, index) => {
      const parsed = ServiceEntry.safeParse(row);
      if (parsed.success) return [parsed.data];
      const id = typeof row === 'object' && row !== null ? (row as { id?: unknown }).id : undefined;
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.code}`);
      log.warn({ index, id, problems }, 'enquiry service: a malformed row of the women list left out');
      return [];
    });
  }

  async list(actor: Actor, kind: SiteKind, input: EntryListInput, log: RowLog = quiet) {
    if (!mayBrowse(actor)) throw forbidden();
    const favorites = can(actor, 'women.favorite')
      ? new Set(await this.favoriteIds(actor, kind))
      : new Set<number>();
    const { favorites: onlyFavorites, ...query } = input.query ?? {};
    if (onlyFavorites) return this.favoriteList(actor, kind, input, [...favorites]);
    const reply = this.parse(
      ListReply,
      await this.post('/api/entrylist', {
        ...this.common(actor, kind),
        type: input.type ?? [2],
        page: input.page,
        perPage: input.perPage,
        query,
      }),
    );
    const given = reply.rows.slice(0, input.perPage);
    const rows = this.entries(given, log).map((entry) => this.card(entry, favorites));
    return {
      rows,
      isEnd: reply.isEnd ?? given.length < input.perPage,
      total: reply.total ?? input.page * input.perPage + rows.length,
    };
  }

  /** The favourites tab: the service's favourites, a page at a time, each read with /api/entry. */
  private async favoriteList(actor: Actor, kind: SiteKind, input: EntryListInput, ids: number[]) {
    const page = ids.slice(input.page * input.perPage, (input.page + 1) * input.perPage);
    const entries = await Promise.all(page.map((id) => this.entry(actor, kind, id).catch(() => null)));
    const favorites = new Set(ids);
    return {
      rows: entries.flatMap((entry) => (entry ? [this.card(entry, favorites)] : [])),
      isEnd: (input.page + 1) * input.perPage >= ids.length,
      total: ids.length,
    };
  }

  private async entry(actor: Actor, kind: SiteKind, id: number): Promise<ServiceEntry> {
    const reply = this.parse(
      DetailReply,
      await this.post('/api/entry', { ...this.common(actor, kind), userId: id }),
    );
    return 'rows' in reply ? reply.rows[0]! : reply;
  }

  async detail(actor: Actor, kind: SiteKind, id: number): Promise<EntryDetailReply> {
    if (!mayBrowse(actor)) throw forbidden();
    const [entry, favorites] = await Promise.all([
      this.entry(actor, kind, id),
      can(actor, 'women.favorite') ? this.favoriteIds(actor, kind) : Promise.resolve([]),
    ]);
    const profile: Record<string, number | number[] | string | null> = Object.fromEntries(
      WOMAN_PUBLIC_FIELDS.map((field) => [field, null]),
    );
    Object.assign(profile, {
      area: numbers(entry.area_id)[0] ?? null,
      height: entry.height ?? null,
      bust: entry.bust ?? null,
      cup: entry.cup ?? null,
      type: numbers(entry.type_id)[0] ?? null,
      languages: numbers(entry.lang),
      personality: numbers(entry.personality),
      trip: numbers(entry.trip)[0] ?? null,
      time_slots: numbers(entry.cvtime),
      pr: entry.pr ?? '',
      women_rank: entry.rank ?? 0,
    });
    const photos = (entry.photos ?? (entry.photo ? [entry.photo] : []))
      .map((url) => this.picture(url))
      .filter((url): url is string => url !== null);
    return { ...this.card(entry, new Set(favorites)), photos, profile };
  }

  /**
   * A woman of the service for a setting request (decision 023): her id and name there. A woman it does not
   * know is a 404 saying so; its failures are the list's 502 and 504.
   */
  async woman(actor: Actor, kind: SiteKind, id: number): Promise<{ id: number; name: string }> {
    if (!mayBrowse(actor)) throw forbidden();
    try {
      const entry = await this.entry(actor, kind, id);
      return { id, name: entry.name.slice(0, SETTING_WOMAN_NAME_MAX) };
    } catch (error) {
      if (error instanceof AppError && error.kind === 'not-found')
        throw notFound(jaMember.setting.errors.notInService);
      throw error;
    }
  }

  async favoriteIds(actor: Actor, kind: SiteKind): Promise<number[]> {
    if (!can(actor, 'women.favorite')) throw forbidden();
    const reply = this.parse(
      FavoriteReply,
      await this.post('/member/getFavorite', { userId: actor.uid, ...this.common(actor, kind) }),
    );
    const items = this.parse(z.array(FavoriteItem), reply);
    return items.filter((item) => item.flg === 1).map((item) => item.id);
  }

  async setFavorite(actor: Actor, kind: SiteKind, id: number, on: boolean): Promise<void> {
    if (!can(actor, 'women.favorite')) throw forbidden();
    await this.post('/member/updateFavorite', {
      userId: actor.uid,
      ...this.common(actor, kind),
      data: { id, flg: on ? 1 : 0 },
    });
  }
}
