import { z } from 'zod';
import {
  StampSetAddBody,
  StampSetsReply,
  StampSetUpdateBody,
  StampsBody,
  StampsReply,
  StampOkReply,
} from './stamps.js';
import { CALENDAR_CALLS } from './calendar.js';
import { MemberTableBody, MemberTableReply } from './back-office.js';
import { DESK_CALLS } from './desk-talk.js';
import { ReportBody, ReportReply } from './reports.js';
import { MemberExportBody, MemberExportReply } from './member-csv.js';
import { SCHEDULED_CALLS } from './scheduled-broadcast.js';
import { MEMBER_IMPORT_CALLS } from './member-import.js';
import {
  AddConversationBody,
  AddConversationReply,
  AuditLogBody,
  AuditLogReply,
  ClubConfigBody,
  ClubConfigReply,
  DelUserBody,
  SearchUserBody,
  SearchUserReply,
  UpdateUserBody,
  AddUserBody,
  UploadUserImageBody,
  UserRowsReply,
} from './admin.js';
import {
  BannerAddBody,
  BannerDeleteBody,
  BannerGetBody,
  BannerGetReply,
  BroadcastSendBody,
  BroadcastSendReply,
  BroadcastsBody,
  BroadcastsReply,
  NewsAddBody,
  NewsDeleteBody,
  NewsGetBody,
  NewsGetReply,
  NewsUpdateBody,
  OkReply,
  RecipientsBody,
  RecipientsReply,
  SavedReply,
} from './content.js';
import {
  ApplicationsBody,
  ApplicationsReply,
  AuthBody,
  AuthReply,
  EntryBody,
  EntryReply,
  GetUserBody,
  GetUserReply,
  LoginBody,
  FirstPasswordLoginBody,
  LoginReply,
  LogoutBody,
  SubscriptBody,
} from './http.js';
import {
  FactorOkReply,
  FactorsReply,
  LoginSecondBody,
  LoginSecondOptionsBody,
  LoginTicketReply,
  PasskeyLoginBody,
  PasskeyLoginOptionsBody,
  PasskeyRegisterBody,
  PasskeyRegisterReply,
  PasskeyRemoveBody,
  RecoveryCodesReply,
  SessionOnlyBody,
  StaffRequirementBody,
  StaffRequirementReply,
  TotpConfirmBody,
  TotpSetupReply,
  WebauthnOptions,
} from './second-factor.js';
import {
  ConversationsBody,
  ConversationsReply,
  GetConversationBody,
  GetConversationReply,
  MessagesBody,
  MessagesReply,
  UpdateNotificationsBody,
  UpdateNotificationsReply,
} from './talk.js';
import {
  ApplicationHandleBody,
  ClubLookupUpdateBody,
  ClubLookupUpdateReply,
  LookupsBody,
  LookupsReply,
  ProfileGetBody,
  ProfilePhotoAddBody,
  ProfilePhotoDeleteBody,
  ProfilePhotoOrderBody,
  ProfileReply,
  ProfileUpdateBody,
  ProfileEditableBody,
  ProfileEditableReply,
  ProfileEditableUpdateBody,
} from './profile-calls.js';
import {
  CannedDeleteBody,
  CannedListBody,
  CannedRepliesReply,
  CannedSaveBody,
  MessageSearchBody,
  MessageSearchReply,
  NoteAddBody,
  NoteDeleteBody,
  NotesBody,
  NotesReply,
} from './desk.js';
import {
  GetFavoriteBody,
  GetFavoriteReply,
  SettingAddBody,
  SettingAddReply,
  SettingListBody,
  SettingListReply,
  SettingUpdateBody,
  SettingUpdateReply,
  UpdateFavoriteBody,
  UpdateFavoriteReply,
} from './setting.js';
import {
  NoticeDismissBody,
  NoticesBody,
  NoticesReply,
  ReauthBody,
  ReauthOptionsBody,
  ReauthReply,
} from './reauth.js';
import {
  SessionRevokeBody,
  SessionRevokeOthersBody,
  SessionsBody,
  SessionsReply,
  UserSessionsBody,
  UserSessionsRevokeReply,
} from './sessions.js';
import { EntryDetailBody, EntryDetailReply, EntryListBody, EntryListReply } from './women.js';
import {
  PushCheckBody,
  PushCheckReply,
  PushKeyBody,
  PushKeyReply,
  PushSettings,
  PushSettingsGetBody,
  PushSettingsUpdateBody,
} from './push.js';

/*
 * Every HTTP call (`POST /api/<name>`, product.md §11): the body the server accepts and the reply a 200 carries.
 * The server declares its calls by these names and the web client calls them by the same names, so a wrong
 * body or a wrong reply is a type error on either side.
 */
export const CALLS = {
  // Sign-in and session
  login: { body: LoginBody, reply: z.union([LoginReply, LoginTicketReply]) },
  'login/first-password': { body: FirstPasswordLoginBody, reply: z.union([LoginReply, LoginTicketReply]) },
  // The second step and passwordless passkeys; setting factors up (product.md §11.7)
  'login/second/options': { body: LoginSecondOptionsBody, reply: WebauthnOptions },
  'login/second': { body: LoginSecondBody, reply: LoginReply },
  'login/passkey/options': { body: PasskeyLoginOptionsBody, reply: WebauthnOptions },
  'login/passkey': { body: PasskeyLoginBody, reply: LoginReply },
  '2fa/factors': { body: SessionOnlyBody, reply: FactorsReply },
  '2fa/totp/setup': { body: SessionOnlyBody, reply: TotpSetupReply },
  '2fa/totp/confirm': { body: TotpConfirmBody, reply: RecoveryCodesReply },
  '2fa/totp/remove': { body: SessionOnlyBody, reply: FactorOkReply },
  '2fa/webauthn/register/options': { body: SessionOnlyBody, reply: WebauthnOptions },
  '2fa/webauthn/register/verify': { body: PasskeyRegisterBody, reply: PasskeyRegisterReply },
  '2fa/webauthn/remove': { body: PasskeyRemoveBody, reply: FactorOkReply },
  '2fa/recovery/regenerate': { body: SessionOnlyBody, reply: RecoveryCodesReply },
  '2fa/staff-requirement': { body: StaffRequirementBody, reply: StaffRequirementReply },
  // Fresh proof before a sensitive change; notices about one's account (product.md §11.8)
  reauth: { body: ReauthBody, reply: ReauthReply },
  'reauth/options': { body: ReauthOptionsBody, reply: WebauthnOptions },
  notices: { body: NoticesBody, reply: NoticesReply },
  'notices/dismiss': { body: NoticeDismissBody, reply: NoticesReply },
  logout: { body: LogoutBody, reply: OkReply },
  subscript: { body: SubscriptBody, reply: OkReply },
  // Push notifications
  pushkey: { body: PushKeyBody, reply: PushKeyReply },
  'push/check': { body: PushCheckBody, reply: PushCheckReply },
  'pushsettings/get': { body: PushSettingsGetBody, reply: PushSettings },
  'pushsettings/update': { body: PushSettingsUpdateBody, reply: PushSettings },
  // Answers 200 both ways (product.md §11): a body that does not parse is simply not accepted.
  auth: { body: AuthBody.catch({ ssid: '' }), reply: AuthReply },
  config: { body: ClubConfigBody, reply: ClubConfigReply },
  // One's own sessions (mypage ログイン中の端末), and a member's for the staff who manage their record
  sessions: { body: SessionsBody, reply: SessionsReply },
  'sessions/revoke': { body: SessionRevokeBody, reply: SessionsReply },
  'sessions/revoke_others': { body: SessionRevokeOthersBody, reply: SessionsReply },
  'user/sessions': { body: UserSessionsBody, reply: SessionsReply },
  'user/sessions/revoke': { body: UserSessionsBody, reply: UserSessionsRevokeReply },
  // Applications from the intro pages
  entry: { body: EntryBody, reply: EntryReply },
  applications: { body: ApplicationsBody, reply: ApplicationsReply },
  // Users
  getuser: { body: GetUserBody, reply: GetUserReply },
  adduser: { body: AddUserBody, reply: UserRowsReply },
  updateuser: { body: UpdateUserBody, reply: UserRowsReply },
  searchuser: { body: SearchUserBody, reply: SearchUserReply },
  deluser: { body: DelUserBody, reply: UserRowsReply },
  uploadUserImage: { body: UploadUserImageBody, reply: UserRowsReply },
  auditlog: { body: AuditLogBody, reply: AuditLogReply },
  'members/table': { body: MemberTableBody, reply: MemberTableReply },
  'members/export': { body: MemberExportBody, reply: MemberExportReply },
  ...MEMBER_IMPORT_CALLS,
  // Conversations and messages
  conversations: { body: ConversationsBody, reply: ConversationsReply },
  get_conversation: { body: GetConversationBody, reply: GetConversationReply },
  get_send_conversation: { body: GetConversationBody, reply: GetConversationReply },
  add_conversation: { body: AddConversationBody, reply: AddConversationReply },
  messages: { body: MessagesBody, reply: MessagesReply },
  updateNotifications: { body: UpdateNotificationsBody, reply: UpdateNotificationsReply },
  'messages/search': { body: MessageSearchBody, reply: MessageSearchReply },
  // The staff desk: saved replies and notes on a member (staff only)
  'replies/list': { body: CannedListBody, reply: CannedRepliesReply },
  'replies/save': { body: CannedSaveBody, reply: CannedRepliesReply },
  'replies/delete': { body: CannedDeleteBody, reply: CannedRepliesReply },
  'notes/list': { body: NotesBody, reply: NotesReply },
  'notes/add': { body: NoteAddBody, reply: NotesReply },
  'notes/delete': { body: NoteDeleteBody, reply: NotesReply },
  // Content and bulk sends
  'news/add': { body: NewsAddBody, reply: SavedReply },
  'news/update': { body: NewsUpdateBody, reply: SavedReply },
  'news/delete': { body: NewsDeleteBody, reply: OkReply },
  'news/get': { body: NewsGetBody, reply: NewsGetReply },
  'banner/add': { body: BannerAddBody, reply: SavedReply },
  'banner/delete': { body: BannerDeleteBody, reply: OkReply },
  'banner/get': { body: BannerGetBody, reply: BannerGetReply },
  // Stamps (product.md §12.8)
  stamps: { body: StampsBody, reply: StampsReply },
  'stamps/sets': { body: StampsBody, reply: StampSetsReply },
  'stamps/add_set': { body: StampSetAddBody, reply: SavedReply },
  'stamps/update_set': { body: StampSetUpdateBody, reply: StampOkReply },
  // The club's calendar (product.md §9.3)
  ...CALENDAR_CALLS,
  // Reports (product.md §2.9)
  reports: { body: ReportBody, reply: ReportReply },
  'messages/send': { body: BroadcastSendBody, reply: BroadcastSendReply },
  broadcasts: { body: BroadcastsBody, reply: BroadcastsReply },
  'broadcasts/recipients': { body: RecipientsBody, reply: RecipientsReply },
  ...SCHEDULED_CALLS,
  // Code tables, member profiles and the applications inbox
  lookups: { body: LookupsBody, reply: LookupsReply },
  'lookups/update': { body: ClubLookupUpdateBody, reply: ClubLookupUpdateReply },
  'profile/get': { body: ProfileGetBody, reply: ProfileReply },
  'profile/update': { body: ProfileUpdateBody, reply: ProfileReply },
  'profile/editable': { body: ProfileEditableBody, reply: ProfileEditableReply },
  'profile/editable/update': { body: ProfileEditableUpdateBody, reply: ProfileEditableReply },
  'profile/photo/add': { body: ProfilePhotoAddBody, reply: ProfileReply },
  'profile/photo/delete': { body: ProfilePhotoDeleteBody, reply: ProfileReply },
  'profile/photo/order': { body: ProfilePhotoOrderBody, reply: ProfileReply },
  'applications/handle': { body: ApplicationHandleBody, reply: OkReply },
  // Setting requests and favourites (product.md §18, §19.4)
  'setting/add': { body: SettingAddBody, reply: SettingAddReply },
  'setting/list': { body: SettingListBody, reply: SettingListReply },
  ...DESK_CALLS, // a desk talk's status and 担当 (product.md §2.6)
  'setting/update': { body: SettingUpdateBody, reply: SettingUpdateReply },
  entrylist: { body: EntryListBody, reply: EntryListReply },
  entrydetail: { body: EntryDetailBody, reply: EntryDetailReply },
  'member/getFavorite': { body: GetFavoriteBody, reply: GetFavoriteReply },
  'member/updateFavorite': { body: UpdateFavoriteBody, reply: UpdateFavoriteReply },
} as const satisfies Record<string, { body: z.ZodType; reply: z.ZodType }>;

export type Calls = typeof CALLS;
export type CallName = keyof Calls;

export const isCallName = (name: string): name is CallName => Object.hasOwn(CALLS, name);

/** What the server's handler of a call has to return (before it is sent as JSON). */
export type CallResult<N extends CallName> = z.input<Calls[N]['reply']>;
/**
 * What a 200 of a call carries, as the client reads it. The web does not parse replies at run time (decision
 * 021), so a reply schema has no defaults or transforms: what the server returns is what the client reads.
 */
export type CallReply<N extends CallName> = z.output<Calls[N]['reply']>;
type ReplyChangedByParsing = {
  [N in CallName]: [CallResult<N>] extends [CallReply<N>]
    ? [CallReply<N>] extends [CallResult<N>]
      ? never
      : N
    : N;
}[CallName];
// A call named here has a reply schema that parsing would change (a default, a transform): remove it.
true satisfies [ReplyChangedByParsing] extends [never] ? true : ReplyChangedByParsing;
/** What the client posts to a call, without the `ssid` its API client adds itself. */
export type CallBody<N extends CallName> = Omit<z.input<Calls[N]['body']>, 'ssid'>;
