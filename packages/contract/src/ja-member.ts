/**
 * The member area's wording: staff administration (members, audit log, groups, banners, bulk sends), voice
 * calls, the staff desk, news, push settings, the member menu and my page, the women's list, setting requests and
 * member profiles. Apart from `ja` so that the public pages' first load (product.md §2.7) does not carry it: a screen
 * that says these things loads them with itself. One module per section (ja-member/), gathered by the index as
 * the namespace `jaMember`: a chunk carries only the sections its screens read, so the desk's words do not
 * load with a man's home (decision 021).
 */
export { shell } from './ja-member/shell.js';
export { table } from './ja-member/table.js';
export { board } from './ja-member/board.js';
export { members } from './ja-member/members.js';
export { audit } from './ja-member/audit.js';
export { groups } from './ja-member/groups.js';
export { banners } from './ja-member/banners.js';
export { broadcast } from './ja-member/broadcast.js';
export { calls } from './ja-member/calls.js';
export { desk } from './ja-member/desk.js';
export { messageSearch } from './ja-member/message-search.js';
export { cannedReplies } from './ja-member/canned-replies.js';
export { women } from './ja-member/women.js';
export { course } from './ja-member/course.js';
export { pushCheck } from './ja-member/push-check.js';
export { talkLimit } from './ja-member/talk-limit.js';
export { unsend } from './ja-member/unsend.js';
export { images } from './ja-member/images.js';
export { wrongAddress } from './ja-member/wrong-address.js';
export { news } from './ja-member/news.js';
export { newsMore } from './ja-member/news-more.js';
export { pushSetup } from './ja-member/push-setup.js';
export { memberMenu } from './ja-member/member-menu.js';
export { mypage } from './ja-member/mypage.js';
export { memberSite } from './ja-member/member-site.js';
export { setting } from './ja-member/setting.js';
export { settingNotice } from './ja-member/setting-notice.js';
export { security } from './ja-member/security.js';
export { jaProfile as profile } from './ja-profile.js';
export { sessions } from './ja-member/sessions.js';
export { reauth } from './ja-member/reauth.js';
export { stamps } from './ja-member/stamps.js';
export { stampAdmin } from './ja-member/stamp-admin.js';
export { calendar } from './ja-member/calendar.js';
export { deskTalk } from './ja-member/desk-talk.js';
export { reports } from './ja-member/reports.js';
export { memberImport } from './ja-member/member-import.js';
