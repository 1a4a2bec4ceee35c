import { contentTypeOf, type NewsRow } from '@enishi/contract';
import type { NewsItem } from '../repositories/news-repository.js';

/** A news item as the client sees it: image ids become signed URLs. */
export function presentNews(item: NewsItem, signImages: (ids: string[]) => string[]): NewsRow {
  return {
    id: item.id,
    title: item.title,
    body: item.body,
    image: signImages(item.images),
    created_at: item.createdAt.toISOString(),
    type: contentTypeOf(item.type),
  };
}
