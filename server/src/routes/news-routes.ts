import { BODY_LIMITS } from '@enishi/contract';
import type { apiCalls } from '../http/calls.js';
import type { NewsService } from '../services/news-service.js';

export function newsRoutes(calls: ReturnType<typeof apiCalls>, services: { news: NewsService }): void {
  calls.session(
    'news/add',
    'content.manage',
    async ({ body, actor }) => ({
      status: 'OK',
      ...(await services.news.add(actor, body)),
    }),
    { bodyLimit: BODY_LIMITS.news },
  );

  calls.session(
    'news/update',
    'content.manage',
    async ({ body, actor }) => ({
      status: 'OK',
      ...(await services.news.update(actor, body.id, body)),
    }),
    { bodyLimit: BODY_LIMITS.news },
  );

  calls.session('news/delete', 'content.manage', async ({ body, actor }) => {
    await services.news.delete(actor, body.id);
    return { status: 'OK' };
  });

  calls.session('news/get', 'content.read', async ({ body, actor }) => ({
    rows: await services.news.get(actor, body),
  }));
}
