import { serveSignedImages } from '../http/signed-images.js';
import type { FastifyInstance } from 'fastify';
import { LIMITS, jaMember, type UserRow } from '@enishi/contract';
import type { UserRecord } from '../db/schema.js';
import type { apiCalls } from '../http/calls.js';
import { presentAudit } from '../presenters/member-admin-presenter.js';
import { presentUser } from '../presenters/user-presenter.js';
import type { MemberAdminService, MemberInput } from '../services/member-admin-service.js';
import type { ProfileImageService } from '../services/profile-image-service.js';
import type { SessionService } from '../services/session-service.js';
import { presentSession } from '../presenters/session-presenter.js';
import type { MemberTableService } from '../services/member-table-service.js';
import { presentMemberCsv, presentMemberTableRow } from '../presenters/member-table-presenter.js';

/** A data URL of a 5,000,000-byte image is about 6.7 MB; the JSON around it is small. */
const IMAGE_CALL_BODY_LIMIT = Math.ceil((LIMITS.imageBytes * 4) / 3) + 64 * 1024;

interface Deps {
  memberAdmin: MemberAdminService;
  memberTable: MemberTableService;
  profileImages: ProfileImageService;
  sessions: SessionService;
}

/** The account fields of adduser and updateuser in the service's words (no `pass` on an edit keeps it). */
function account<Password extends string | undefined>(body: {
  id: string;
  name: string;
  name_kana?: string | null | undefined;
  pass: Password;
  rank: number;
  role: number;
  introducer: string;
}): MemberInput & { password: Password } {
  return {
    loginId: body.id,
    name: body.name,
    nameKana: body.name_kana,
    password: body.pass,
    rank: body.rank,
    role: body.role,
    introducer: body.introducer,
  };
}

/** Member and staff administration calls (product.md §7): adduser, updateuser, searchuser, deluser, images, audit. */
export function memberAdminRoutes(calls: ReturnType<typeof apiCalls>, services: Deps): void {
  const row = (user: UserRecord): UserRow =>
    presentUser(user, undefined, services.profileImages.url(user.image));

  calls.session('adduser', 'member.manage', async ({ body, actor }) => {
    const user = await services.memberAdmin.add(actor, account(body));
    return { rows: [row(user)] };
  });

  calls.session('updateuser', 'member.manage', async ({ body, actor }) => {
    const user = await services.memberAdmin.update(actor, body.uid, account(body));
    return { rows: [row(user)] };
  });

  calls.session('searchuser', 'member.manage', async ({ body, actor }) => {
    const found = await services.memberAdmin.search(actor, body);
    return { rows: found.rows.map(row), count: found.count };
  });

  calls.session('deluser', 'member.manage', async ({ body, actor }) => {
    const user = await services.memberAdmin.delete(actor, body.uid);
    return { rows: [presentUser(user)] };
  });

  calls.session(
    'uploadUserImage',
    'user.image.upload',
    async ({ body, actor }) => {
      const user = await services.memberAdmin.uploadImage(actor, body.uid, body.image);
      return { rows: [row(user)] };
    },
    { bodyLimit: IMAGE_CALL_BODY_LIMIT },
  );

  // The back office's member tables (product.md §2.8).
  calls.session('members/table', 'member.manage', async ({ body, actor }) => {
    const page = await services.memberTable.page(actor, body);
    return { rows: page.rows.map(presentMemberTableRow), total: page.total };
  });

  // Every member the table's filters match as CSV for Excel (product.md §2.8); never a password.
  calls.session('members/export', 'member.manage', async ({ body, actor }) => {
    const items = await services.memberTable.exportRows(actor, body);
    return {
      file_name: jaMember.table.csvFile(body.kind),
      csv: presentMemberCsv(body.kind, items),
      count: items.length,
    };
  });

  calls.session('auditlog', 'audit.read', async ({ body, actor }) => {
    const { page: number, ssid: _ssid, ...query } = body;
    const page = await services.memberAdmin.auditLog(actor, number, query);
    return { rows: page.rows.map(presentAudit), isEnd: page.isEnd };
  });

  // A member's sessions on their record, for the staff who manage it (product.md §11.6): a lost phone.
  calls.session('user/sessions', 'member.manage', async ({ body, actor }) => {
    await services.memberAdmin.checkSessionsOf(actor, body.user_id);
    return { rows: (await services.sessions.listOf(body.user_id)).map((row) => presentSession(row, null)) };
  });
  calls.session('user/sessions/revoke', 'member.manage', async ({ body, actor }) => ({
    count: await services.memberAdmin.endSessions(actor, body.user_id),
  }));
}

/**
 * GET /media/profile/<id>?e=<expiry>&s=<signature>: a profile picture for a plain <img>. As with talk images
 * the signed URL is the permission; a changed or expired one is 403, a picture since replaced 404.
 */
export function profileImageRoutes(
  app: FastifyInstance,
  services: { profileImages: ProfileImageService },
): void {
  serveSignedImages(app, '/media/profile', services.profileImages);
}
