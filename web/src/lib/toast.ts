import { LIMITS } from '@enishi/contract';
import { useSyncExternalStore } from 'react';

export type Toast = { id: number; message: string };

let toasts: Toast[] = [];
let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

function dismiss(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

/** Show a short message for LIMITS.toastMs. The same message shown twice restarts its time instead. */
export function toast(message: string): void {
  const same = toasts.find((toast) => toast.message === message);
  const id = same?.id ?? nextId++;
  if (same) clearTimeout(timers.get(id));
  else toasts = [...toasts, { id, message }];
  timers.set(
    id,
    setTimeout(() => dismiss(id), LIMITS.toastMs),
  );
  emit();
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => toasts,
    () => toasts,
  );
}
