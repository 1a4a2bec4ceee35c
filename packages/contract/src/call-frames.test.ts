import * as jaMember from './ja-member.js';
import { describe, expect, it } from 'vitest';
import { CallServerFrame, CancelCallFrame } from './call-frames.js';
import { isServerFrame, mayCall } from './wire.js';
import { ClientFrame, ServerFrame } from './socket.js';

describe('call frames', () => {
  it('allow only staff with male members, either way', () => {
    expect(mayCall(3, 101)).toBe(true);
    expect(mayCall(101, 6)).toBe(true);
    expect(mayCall(3, 201)).toBe(false);
    expect(mayCall(101, 101)).toBe(false);
    expect(mayCall(3, 2)).toBe(false);
    expect(mayCall(7, 101)).toBe(false);
  });

  it('are part of the chat socket frames', () => {
    expect(ClientFrame.safeParse({ type: 'calling', to: 5 }).success).toBe(true);
    expect(ClientFrame.safeParse({ type: 'staff' }).success).toBe(true);
    expect(ClientFrame.safeParse({ type: 'offer', to: 5, sdp: '' }).success).toBe(false);
    expect(CancelCallFrame.safeParse({ type: 'cancelCall', to: 5, extra: 1 }).success).toBe(false);
    const cancel = { type: 'cancelCall', from: { uid: 1, name: 'a', image: null }, reason: 'busy' };
    expect(ServerFrame.parse(cancel)).toEqual(cancel);
    expect(CallServerFrame.safeParse({ ...cancel, reason: 'lost' }).success).toBe(false);
  });

  it('word a call record as 通話 3分12秒', () => {
    expect(jaMember.calls.duration(192)).toBe('通話 3分12秒');
    expect(jaMember.calls.duration(45.7)).toBe('通話 45秒');
    expect(jaMember.calls.duration(60)).toBe('通話 1分0秒');
  });
});

describe('isServerFrame', () => {
  it('knows the type of every frame the server sends, and no other', () => {
    expect(isServerFrame({ type: 'ready', last_id: 0 })).toBe(true);
    expect(isServerFrame({ type: 'updateConnection', uid: 1, isOnline: true })).toBe(true);
    expect(isServerFrame({ type: 'typing' })).toBe(false);
    expect(isServerFrame(['ready'])).toBe(false);
    expect(isServerFrame(null)).toBe(false);
  });
});
