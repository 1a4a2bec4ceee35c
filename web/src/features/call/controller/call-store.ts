import { IDLE, type CallState } from './call-state';

/** The call as the overlay shows it, and who to tell when it changes (the overlay's listeners). */
export class CallStore {
  private state: CallState = IDLE;
  private readonly listeners = new Set<() => void>();

  get(): CallState {
    return this.state;
  }

  set(patch: Partial<CallState>): void {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((listener) => listener());
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
