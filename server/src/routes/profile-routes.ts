import type { FastifyInstance } from 'fastify';
import { LIMITS, type ProfileReply } from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import { serveSignedImages } from '../http/signed-images.js';
import type { ProfilePhotoService } from '../services/profile-photo-service.js';
import type { ProfileService, ProfileView } from '../services/profile-service.js';

/** A data URL of a 5,000,000-byte image is about 6.7 MB; the JSON around it is small. */
const PHOTO_CALL_BODY_LIMIT = Math.ceil((LIMITS.imageBytes * 4) / 3) + 64 * 1024;

const reply = (view: ProfileView): ProfileReply => ({
  uid: view.user.id,
  role: view.user.role,
  name: view.user.name,
  profile: view.profile,
  photos: view.photos,
  history: view.history,
});

/** Code tables, member profiles and photos (product.md §19.1, §19.5). */
export function profileRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { profiles: ProfileService },
): void {
  const { profiles } = services;
  calls.session('lookups', 'account.use', async () => profiles.lookups());
  calls.session('lookups/update', 'lookups.manage', async ({ body, actor }) => ({
    items: await profiles.replaceClubList(
      actor,
      body.list,
      body.items.map(({ parent, ...item }) => (parent ? { ...item, parent } : item)),
    ),
  }));
  calls.session('profile/get', 'member.profile.read', async ({ body, actor }) =>
    reply(await profiles.get(actor, body.uid)),
  );
  calls.session('profile/update', 'member.profile.update', async ({ body, actor }) =>
    reply(await profiles.update(actor, body.uid, body.profile)),
  );
  calls.session('profile/editable', 'account.use', async () => ({ fields: await profiles.editableFields() }));
  calls.session('profile/editable/update', 'lookups.manage', async ({ body, actor }) => ({
    fields: await profiles.setEditableFields(actor, body.fields),
  }));
  calls.session(
    'profile/photo/add',
    'member.manage',
    async ({ body, actor }) => reply(await profiles.addPhoto(actor, body.uid, body.image)),
    { bodyLimit: PHOTO_CALL_BODY_LIMIT },
  );
  calls.session('profile/photo/delete', 'member.manage', async ({ body, actor }) =>
    reply(await profiles.deletePhoto(actor, body.uid, body.id)),
  );
  calls.session('profile/photo/order', 'member.manage', async ({ body, actor }) =>
    reply(await profiles.orderPhotos(actor, body.uid, body.ids)),
  );
}

/** GET /media/photo/<id>?e=&s=: a member photo, signed only with a profile its reader may see. */
export function profilePhotoRoutes(
  app: FastifyInstance,
  services: { profilePhotos: ProfilePhotoService },
): void {
  serveSignedImages(app, '/media/photo', services.profilePhotos);
}
