import { LIMITS } from '@enishi/contract';
import { useSyncExternalStore } from 'react';

/**
 * `success`: something the user did went through; anything else is a notice (often a problem). `about`: the talk
 * whose new message it tells of, so that opening that talk takes it away (dismissAbout).
 */
export type Toast = { id: number; message: string; success: boolean; about?: number };

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

/**
 * Show a short message for LIMITS.toastMs. The same message shown twice restarts its time instead; a new one
 * replaces the standing one of its kind (a notice another notice, a success another success), so two
 * contradictory answers never stand side by side (product.md §2.4).
 */
export function toast(message: string, success = false, about?: number): void {
  const same = toasts.find((toast) => toast.message === message);
  const id = same?.id ?? nextId++;
  if (same) {
    clearTimeout(timers.get(id));
    // Said again by another talk: about the newest (not drawn, so no new list).
    same.about = about;
  } else {
    for (const standing of toasts) if (standing.success === success) dismiss(standing.id);
    toasts = [...toasts, { id, message, success, about }];
  }
  timers.set(
    id,
    setTimeout(() => dismiss(id), LIMITS.toastMs),
  );
  emit();
}

/**
 * Something went through: its message replaces the notices still standing (an error from the try before would
 * otherwise read as the answer to this one) and the success before it.
 */
export function toastSuccess(message: string): void {
  for (const standing of toasts) if (!standing.success) dismiss(standing.id);
  toast(message, true);
}

/** Talk `about` is on screen: the toasts that told of its new messages have said their part. */
export function dismissAbout(about: number): void {
  for (const standing of toasts) if (standing.about === about) dismiss(standing.id);
}

/** The toasts now shown (the viewport reads them through useToasts). */
export const currentToasts = (): Toast[] => toasts;

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
