import { CONTENT_TYPE, ja, type ContentGroup, type ContentType, jaMember } from '@enishi/contract';

/** A bulk-send target: men or women, with the key its draft is kept under (product.md §3 drafts). */
export const draftKey = (group: ContentGroup): string => (group === 'men' ? 'sendmen' : 'sendwomen');

export const typeOf = (group: ContentGroup): ContentType => CONTENT_TYPE[group];

export const sentText = (group: ContentGroup): string =>
  group === 'men' ? jaMember.broadcast.sentMen : jaMember.broadcast.sentWomen;

export const selectTitle = (group: ContentGroup): string =>
  group === 'men' ? ja.screens.sendMen : ja.screens.sendWomen;

export const formTitle = (group: ContentGroup): string =>
  group === 'men' ? ja.screens.sendMenForm : ja.screens.sendWomenForm;

/** /women/send... is women, anything else men. */
export const groupOfPath = (pathname: string): ContentGroup =>
  /^\/women\//.test(pathname) ? 'women' : 'men';
