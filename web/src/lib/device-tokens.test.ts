// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { clearLocalState, updateLocalState } from './local-state';
import { deviceTokenFor, keepDeviceToken } from './device-tokens';

describe('device tokens (product.md §11.4)', () => {
  beforeEach(() => localStorage.clear());

  it('keeps one token per login ID, found whichever way the ID is typed', () => {
    keepDeviceToken('Owner', 'token-1');
    keepDeviceToken('hanako', 'token-2');
    expect(deviceTokenFor('OWNER')).toBe('token-1');
    expect(deviceTokenFor('hanako')).toBe('token-2');
    expect(deviceTokenFor('taro')).toBeUndefined();
    keepDeviceToken('owner', 'token-3');
    expect(deviceTokenFor('owner')).toBe('token-3');
  });

  it('survives logging out, which clears the app state', () => {
    keepDeviceToken('owner', 'token-1');
    updateLocalState((state) => ({ ...state, session: null }));
    clearLocalState();
    expect(deviceTokenFor('owner')).toBe('token-1');
  });

  it('keeps the five accounts used last', () => {
    for (let i = 0; i < 7; i += 1) keepDeviceToken(`user-${i}`, `token-${i}`);
    expect(deviceTokenFor('user-0')).toBeUndefined();
    expect(deviceTokenFor('user-1')).toBeUndefined();
    expect(deviceTokenFor('user-6')).toBe('token-6');
    expect(deviceTokenFor('user-2')).toBe('token-2');
  });

  it('reads a damaged store as empty', () => {
    localStorage.setItem('enishi-devices', '{not json');
    expect(deviceTokenFor('owner')).toBeUndefined();
    keepDeviceToken('owner', 'token-1');
    expect(deviceTokenFor('owner')).toBe('token-1');
  });
});
