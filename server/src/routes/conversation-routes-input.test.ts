import { ja } from '@enishi/contract';
import { describe, expect, it } from 'vitest';
import { call, callRaw } from '../test/app.js';
import { useTalkClub } from '../test/talk-club.js';

describe('conversation calls refuse bad input', () => {
  const club = useTalkClub(Date.now);

  describe('bad input', () => {
    const good: Record<string, Record<string, unknown>> = {
      conversations: { type: 'men', search: '', page: 0 },
      get_conversation: { conversation_id: 1 },
      get_send_conversation: { conversation_id: 1 },
      messages: { id: 1 },
      updateNotifications: {},
    };

    it.each(Object.keys(good))('/api/%s answers 401 without a valid session', async (name) => {
      for (const ssidValue of [undefined, '', 'x'.repeat(43)]) {
        expect(await call(club.ctx.app, name, { ...good[name], ssid: ssidValue })).toMatchObject({
          status: 401,
          body: { error: ja.errors.unauthorized },
        });
      }
    });

    it.each(Object.keys(good))('/api/%s answers 400 for malformed JSON', async (name) => {
      expect(await callRaw(club.ctx.app, name, '{"ssid": ', 'application/json')).toMatchObject({
        status: 400,
        body: { error: ja.errors.malformedJson },
      });
    });

    it.each([
      ['conversations', { type: 'other' }],
      ['conversations', { type: 1 }],
      ['conversations', {}],
      ['conversations', { type: 'men', search: 'あ'.repeat(51) }],
      ['conversations', { type: 'men', search: 5 }],
      ['conversations', { type: 'men', page: -1 }],
      ['conversations', { type: 'men', page: 'x' }],
      ['conversations', { type: 'men', extra: true }],
      ['get_conversation', {}],
      ['get_conversation', { conversation_id: 'abc' }],
      ['get_conversation', { conversation_id: 0 }],
      ['get_conversation', { conversation_id: 1, extra: 1 }],
      ['get_send_conversation', { conversation_id: true }],
      ['messages', {}],
      ['messages', { id: -3 }],
      ['messages', { id: 1, before: 'yesterday' }],
      ['messages', { id: 1, limit: 10 }],
      ['updateNotifications', { news: -1 }],
      ['updateNotifications', { setting: 'many' }],
      ['updateNotifications', { badge: 1 }],
    ])('/api/%s refuses %j with 400', async (name, body) => {
      const reply = await call(club.ctx.app, name, { ssid: club.ssid.admin, ...body });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ error: expect.stringMatching(/[\u3040-\u30ff\u4e00-\u9faf]/) });
    });
  });
});
