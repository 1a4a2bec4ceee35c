import {
  BODY_LIMITS,
  NewsAddBody,
  NewsDeleteBody,
  NewsGetBody,
  NewsUpdateBody,
  type NewsGetReply,
  type OkReply,
  type SavedReply,
} from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import type { NewsService } from '../services/news-service.js';

export function newsRoutes(calls: ReturnType<typeof apiCalls>, services: { news: NewsService }): void {
  calls.session(
    'news/add',
    NewsAddBody,
    async ({ body, actor }): Promise<SavedReply> => ({
      status: 'OK',
      ...(await services.news.add(actor, body)),
    }),
    { bodyLimit: BODY_LIMITS.news },
  );

  calls.session(
    'news/update',
    NewsUpdateBody,
    async ({ body, actor }): Promise<SavedReply> => ({
      status: 'OK',
      ...(await services.news.update(actor, body.id, body)),
    }),
    { bodyLimit: BODY_LIMITS.news },
  );

  calls.session('news/delete', NewsDeleteBody, async ({ body, actor }): Promise<OkReply> => {
    await services.news.delete(actor, body.id);
    return { status: 'OK' };
  });

  calls.session('news/get', NewsGetBody, async ({ body, actor }): Promise<NewsGetReply> => ({
    rows: await services.news.get(actor, body),
  }));
}
