import { z } from 'zod';

/*
 * What the club's external enquiry service answers (product.md §19.11), as services/enquiry-service.ts
 * reads it: an entry with its list fields decoded, a list, a detail and the favourites. A reply of another
 * shape is the service's failure (502), never an empty list; a list's row of another shape is left out and
 * logged, the rest shown.
 */

/** The spec's list fields of an entry: each a JSON list, decoded on receipt (a list as it is is taken too). */
const LIST_FIELDS = [
  'status_char',
  'area_id',
  'type_id',
  'id_text',
  'partner',
  'tatto_area',
  'scratch_area',
  'ng_eat_chk',
  'dating_ex_kind',
  'plastic_chk',
  'ex_up_kind',
  'lang',
  'clear_age',
  'personality',
  'motivation_c',
  'formems',
  'cvtime',
  'trip',
  'fore_vip',
  'ng_users',
] as const;

const jsonList = z
  .union([z.string(), z.array(z.unknown()), z.null()])
  .optional()
  .transform((value, ctx) => {
    if (value === null || value === undefined || value === '') return [];
    try {
      const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
      if (Array.isArray(list)) return list;
    } catch {
      // fall through
    }
    ctx.addIssue({ code: 'custom', message: 'not a JSON list' });
    return z.NEVER;
  });
export const numbers = (list: unknown[]): number[] =>
  list.map((item) => Number(item)).filter((item) => Number.isInteger(item));
const maybeNumber = z.union([z.number(), z.null()]).optional();

export const ServiceEntry = z.object({
  id: z.number().int(),
  name: z.string().max(100).default(''),
  age: maybeNumber,
  height: maybeNumber,
  bust: maybeNumber,
  cup: maybeNumber,
  rank: maybeNumber,
  photo: z.string().max(2000).nullable().optional(),
  photos: z.array(z.string().max(2000)).max(20).optional(),
  pr: z.string().max(2000).optional(),
  ...Object.fromEntries(LIST_FIELDS.map((field) => [field, jsonList])),
}) as unknown as z.ZodType<ServiceEntry>;
export type ServiceEntry = {
  id: number;
  name: string;
  age?: number | null;
  height?: number | null;
  bust?: number | null;
  cup?: number | null;
  rank?: number | null;
  photo?: string | null;
  photos?: string[];
  pr?: string;
} & Record<(typeof LIST_FIELDS)[number], unknown[]>;

/** Rows are read one by one (EnquiryService.list): one malformed row is left out, not the whole page. */
export const ListReply = z.object({
  rows: z.array(z.unknown()).max(200),
  isEnd: z.boolean().optional(),
  total: z.number().int().min(0).optional(),
});
export const DetailReply = z.union([z.object({ rows: z.array(ServiceEntry).min(1) }), ServiceEntry]);
export const FavoriteItem = z.object({ id: z.coerce.number().int(), flg: z.coerce.number().int() });
export const FavoriteReply = z.union([
  z.string().transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON' });
      return z.NEVER;
    }
  }),
  z.array(z.unknown()),
  z.object({ rows: z.array(z.unknown()) }).transform((reply) => reply.rows),
]);
