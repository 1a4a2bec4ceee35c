import type { apiCalls } from '../http/calls.js';
import type { DeskService } from '../services/desk-service.js';
import type { ProfileImageService } from '../services/profile-image-service.js';

/**
 * The staff desk (product.md §11.6): `messages/search` for everyone (what the caller may see), saved replies
 * (`replies/*`) and notes on a member (`notes/*`) for staff only.
 */
export function deskRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { desk: DeskService; profileImages: ProfileImageService },
): void {
  const { desk } = services;
  calls.session('messages/search', 'talk.read', ({ body, actor }) => desk.search(actor, body));

  calls.session('replies/list', 'desk.use', ({ actor }) => desk.cannedReplies(actor));
  calls.session('replies/save', 'reply.manage', ({ body, actor }) => desk.saveCanned(actor, body));
  calls.session('replies/delete', 'reply.manage', ({ body, actor }) => desk.deleteCanned(actor, body.id));

  // The member's picture goes out as a signed URL, like everywhere else.
  const withImage = async (reply: ReturnType<DeskService['notes']>) => {
    const notes = await reply;
    return { ...notes, member: { ...notes.member, image: services.profileImages.url(notes.member.image) } };
  };
  calls.session('notes/list', 'desk.use', ({ body, actor }) => withImage(desk.notes(actor, body.uid)));
  calls.session('notes/add', 'desk.use', ({ body, actor }) =>
    withImage(desk.addNote(actor, body.uid, body.body)),
  );
  calls.session('notes/delete', 'desk.use', ({ body, actor }) => withImage(desk.deleteNote(actor, body.id)));
}
