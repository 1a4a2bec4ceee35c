import type { DeskTalkService } from '../services/desk-talk-service.js';
import type { Delivery } from '../bus/delivery.js';
import type { DatabaseConnections } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { AuditRepository } from '../repositories/audit-repository.js';
import { EntryRepository } from '../repositories/entry-repository.js';
import { FavoriteRepository } from '../repositories/favorite-repository.js';
import { MemberAdminRepository } from '../repositories/member-admin-repository.js';
import type { ProfileRepository } from '../repositories/profile-repository.js';
import { SettingRepository } from '../repositories/setting-repository.js';
import type { UserRepository } from '../repositories/user-repository.js';
import type { ConversationService } from '../services/conversation-service.js';
import type { EnquiryService } from '../services/enquiry-service.js';
import { MemberAdminService, type OwnPasswordChange } from '../services/member-admin-service.js';
import type { MessagePosting } from '../services/message-posting.js';
import type { ProfileImageService } from '../services/profile-image-service.js';
import type { ProfilePhotoService } from '../services/profile-photo-service.js';
import { SettingService } from '../services/setting-service.js';
import type { UserService } from '../services/user-service.js';
import { WomenService } from '../services/women-service.js';

/** Member records, their audit log and their pictures (product.md §11.6). */
export function memberAdministration(
  db: DatabaseConnections['db'],
  deps: {
    users: UserService;
    userRepository: UserRepository;
    profileImages: ProfileImageService;
    profileRepository: ProfileRepository;
    profilePhotos: ProfilePhotoService;
    delivery: Delivery;
    /** A new password of one's own needs fresh proof and tells the person's other devices. */
    accounts: OwnPasswordChange;
    deskTalks: DeskTalkService;
  },
  clock: Clock,
): MemberAdminService {
  return new MemberAdminService(
    new MemberAdminRepository(db),
    deps.userRepository,
    deps.users,
    new AuditRepository(db),
    deps.profileImages,
    deps.delivery,
    clock,
    {
      of: async (uid) => (await deps.profileRepository.photos(uid)).map((photo) => photo.path),
      remove: (paths) => deps.profilePhotos.remove(paths),
    },
    deps.accounts,
    deps.deskTalks,
  );
}

/** The women's list, favourites and setting requests (product.md §18, §19). */
export function matchmaking(
  db: DatabaseConnections['db'],
  deps: {
    profilePhotos: ProfilePhotoService;
    profileImages: ProfileImageService;
    conversations: ConversationService;
    posting: MessagePosting;
    users: UserRepository;
    delivery: Delivery;
    enquiry: EnquiryService | null;
  },
  clock: Clock,
): { women: WomenService; settings: SettingService } {
  const women = new WomenService(
    new EntryRepository(db),
    new FavoriteRepository(db),
    deps.users,
    {
      photos: (ids) => deps.profilePhotos.sign(ids),
      picture: (stored) => deps.profileImages.url(stored),
    },
    clock,
  );
  const settings = new SettingService(
    new SettingRepository(db),
    deps.users,
    deps.conversations,
    deps.posting,
    (actor, kind, womanId) => women.mayAskFor(actor, kind, womanId),
    clock,
    deps.delivery,
    deps.enquiry,
  );
  return { women, settings };
}
