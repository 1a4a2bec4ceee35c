import { CONTENT_TYPE, ja, type ContentGroup, type ContentType, jaMember } from '@enishi/contract';

/** men/women of the admin routes, and their news type and words. */
export const GROUPS: ContentGroup[] = ['men', 'women'];

export const typeOf = (group: ContentGroup): ContentType => CONTENT_TYPE[group];

export const groupLabel = (group: ContentGroup): string =>
  group === 'men' ? jaMember.news.men : jaMember.news.women;

export const typeLabel = (type: number): string =>
  type === CONTENT_TYPE.women ? jaMember.news.women : jaMember.news.men;

export const savedText = (group: ContentGroup): string =>
  group === 'men' ? jaMember.news.savedMen : jaMember.news.savedWomen;

export const screenTitle = (group: ContentGroup, screen: 'list' | 'add' | 'edit'): string => {
  const titles = {
    men: { list: ja.screens.newsMenList, add: ja.screens.newsMenAdd, edit: ja.screens.newsMenEdit },
    women: { list: ja.screens.newsWomenList, add: ja.screens.newsWomenAdd, edit: ja.screens.newsWomenEdit },
  };
  return titles[group][screen];
};

/** The group of an admin path: /news/women/... is women, anything else men. */
export const groupOfPath = (pathname: string): ContentGroup =>
  /^\/news\/women(\/|$)/.test(pathname) ? 'women' : 'men';
