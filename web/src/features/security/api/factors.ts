import type { FactorsReply } from '@enishi/contract';
import { startRegistration } from '@simplewebauthn/browser';
import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/api-client';

/*
 * The caller's own second factors (product.md §11.7). Plain state rather than the query cache: the setup
 * screen that staff must pass first runs before the member area (and its query cache) is loaded.
 */

export function useFactors() {
  const [factors, setFactors] = useState<FactorsReply | null>(null);
  /** Why the first read failed (the screen offers to read again), or null. */
  const [failed, setFailed] = useState<unknown>(null);
  const reload = useCallback(async () => {
    setFactors(await api('2fa/factors', {}));
    setFailed(null);
  }, []);
  const read = useCallback(() => {
    let live = true;
    api('2fa/factors', {}).then(
      (reply) => live && setFactors(reply),
      (error: unknown) => live && setFailed(error),
    );
    return () => {
      live = false;
    };
  }, []);
  useEffect(read, [read]);
  /** After a failed read: the loading mark again, and another read. */
  const retry = useCallback(() => {
    setFailed(null);
    read();
  }, [read]);
  return { factors, failed, reload, retry };
}

export const startTotp = () => api('2fa/totp/setup', {});
export const confirmTotp = (code: string) => api('2fa/totp/confirm', { code });
export const removeTotp = () => api('2fa/totp/remove', {});
export const removePasskey = (id: string) => api('2fa/webauthn/remove', { id });
export const newRecoveryCodes = () => api('2fa/recovery/regenerate', {});
export const setStaffRequirement = (required: boolean) => api('2fa/staff-requirement', { required });

/** Registers this device's passkey (the browser asks for the face, finger or screen lock). */
export async function addPasskey(name: string): Promise<string[] | undefined> {
  const optionsJSON = await api('2fa/webauthn/register/options', {});
  const response = await startRegistration({ optionsJSON: optionsJSON as never });
  const reply = await api('2fa/webauthn/register/verify', { response: response as never, name });
  return reply.recovery_codes;
}

/** A short name for the passkey from the browser's own description of the device. */
export function deviceName(): string {
  const agent = navigator.userAgent;
  if (/iPhone/.test(agent)) return 'iPhone';
  if (/iPad/.test(agent)) return 'iPad';
  if (/Android/.test(agent)) return 'Android';
  if (/Mac OS X/.test(agent)) return 'Mac';
  if (/Windows/.test(agent)) return 'Windows';
  return 'パスキー';
}
