import { ja, SOCKET_CLOSE, type ServerFrame } from '@enishi/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base, connect, manDesk, ssid, text, useChatClub } from '../test/chat-club.js';
import { TestSocket } from '../test/socket.js';
import { newClientId } from '../test/talk.js';

/* Property tests of every client frame type: whatever a client sends, it never gets the internal-error text. */

const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  // Any UTF-16 unit alone: U+0000 and lone surrogates included.
  fc.string({ unit: fc.nat(0xffff).map((unit) => String.fromCharCode(unit)) }),
);
const anyNumber = fc.oneof(
  fc.integer(),
  fc.maxSafeNat(),
  fc.constantFrom(0, -1, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, 2 ** 53, 1e308),
  fc.double(),
);
const anyValue = fc.oneof(anyText, anyNumber, fc.boolean(), fc.constant(null), fc.anything());
/** Now the field's valid value, now anything. */
const nearly = <T>(valid: fc.Arbitrary<T>) => fc.oneof(valid, anyValue);

const talkId = fc.constantFrom(1, 2, 3, 999_999);
const frames = fc.oneof(
  fc.record(
    {
      type: fc.constant('text'),
      conversation_id: nearly(talkId),
      conversation_type: nearly(fc.constantFrom('men', 'staff', null)),
      message: nearly(anyText),
      image: nearly(fc.array(nearly(fc.constant('data:image/png;base64,iVBORw0KGgo=')), { maxLength: 6 })),
      reply: nearly(fc.constant(null)),
      announce: nearly(fc.boolean()),
      client_id: nearly(fc.uuid()),
      extra: anyValue,
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('delete'),
      delete_message_id: nearly(anyNumber),
      delete_announce_id: nearly(anyNumber),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    { type: fc.constant('open'), conversation_id: nearly(talkId), conversation_type: anyValue },
    { requiredKeys: ['type'] },
  ),
  // Voice calls (product.md §17): to the people of the club (1-5) or anyone.
  fc.record(
    {
      type: fc.constantFrom('calling', 'offer', 'answer', 'candidate', 'cancelCall', 'staff'),
      to: nearly(fc.constantFrom(1, 2, 3, 4, 5, 999_999)),
      sdp: nearly(anyText),
      ice: nearly(
        fc.record({ candidate: anyText, sdpMid: nearly(anyText), sdpMLineIndex: nearly(anyNumber) }),
      ),
      from: anyValue,
      reason: anyValue,
    },
    { requiredKeys: ['type'] },
  ),
  fc.dictionary(anyText, anyValue, { maxKeys: 4 }),
  fc.record({ type: anyText }),
);

const internal = (frame: ServerFrame) => frame.type === 'error' && frame.error === ja.errors.internal;

describe('chat socket: property tests of client frames', () => {
  useChatClub();

  it('answers no frame after the session with the internal error, and stays open', async () => {
    const socket = await connect(ssid.taro!);
    await fc.assert(
      fc.asyncProperty(frames, async (frame) => {
        socket.send(JSON.stringify(frame));
        // Frames are handled in order: the answer to this one marks the end of the fuzzed one's.
        const marker = text(manDesk, '', { client_id: newClientId() });
        socket.send(marker);
        await socket.take((each) => each.type === 'error' && each.client_id === marker.client_id);
        expect(socket.received.some(internal)).toBe(false);
        expect(socket.ws.readyState).toBe(socket.ws.OPEN);
      }),
      { numRuns: 200 },
    );
  });

  it('closes on any first frame that is not a valid session with a documented code', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          frames,
          fc.record({ type: fc.constant('session'), session: nearly(anyText), last_id: nearly(anyNumber) }),
        ),
        async (frame) => {
          const socket = await TestSocket.connect(base);
          socket.send(JSON.stringify(frame));
          const { code } = await socket.closed;
          expect([SOCKET_CLOSE.unauthenticated, 1009]).toContain(code);
          expect(socket.received.some(internal)).toBe(false);
        },
      ),
      { numRuns: 40 },
    );
  });
});
