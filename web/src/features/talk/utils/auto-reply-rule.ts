import type { autoReplyFor } from './auto-reply';

export type AutoReplyRule = typeof autoReplyFor;

let loaded: AutoReplyRule | null = null;
let loading: Promise<AutoReplyRule> | undefined;

/**
 * The desk's auto-reply rule, loaded once, on first use (its holiday table is large): by a member's talk with
 * the staff, or already by that talk's loader, so that its first drawing has the note (product.md §4.9).
 */
export function loadAutoReplyRule(): Promise<AutoReplyRule> {
  loading ??= import('./auto-reply').then(
    (module) => (loaded = module.autoReplyFor),
    (error: unknown) => {
      loading = undefined; // offline, say: the next talk asks again
      throw error;
    },
  );
  return loading;
}

/** Whether the rule has been asked for. */
export const autoReplyRuleAsked = (): boolean => loading !== undefined;

/** The rule when it has loaded, else null. */
export const loadedAutoReplyRule = (): AutoReplyRule | null => loaded;
