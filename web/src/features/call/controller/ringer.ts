import { CALL_RING_REPEAT_MS } from '@enishi/contract';

/*
 * The ring of an incoming call (product.md §17): a two-tone chime repeated every 2 seconds until the call is
 * answered, declined or cancelled. Played with WebAudio from samples made here (no file to fetch, so it rings
 * offline too, and no media URL for the Content-Security-Policy to refuse); phones also vibrate where the
 * browser allows. Stopping closes the audio context, so nothing of the ring stays running.
 */

export interface Ringer {
  start(): void;
  stop(): void;
}

const RATE = 22_050;

/** Two short tones (880 Hz, 660 Hz) with soft edges, then silence up to CALL_RING_REPEAT_MS. */
function fillRing(samples: Float32Array): void {
  for (let i = 0; i < samples.length; i++) {
    const t = i / RATE;
    const within = t % 0.5;
    const tone = t < 0.4 ? 880 : t >= 0.5 && t < 0.9 ? 660 : 0;
    const edge = Math.max(0, Math.min(1, within * 40, (0.4 - within) * 40));
    samples[i] = tone ? Math.sin(2 * Math.PI * tone * t) * 0.35 * edge : 0;
  }
}

type AudioContextClass = typeof AudioContext;

export function createAudioRinger(): Ringer {
  let context: AudioContext | null = null;
  let vibrating: ReturnType<typeof setInterval> | undefined;
  return {
    start() {
      if (context) return;
      const Context = (window.AudioContext ??
        (window as { webkitAudioContext?: AudioContextClass }).webkitAudioContext) as
        AudioContextClass | undefined;
      if (Context) {
        context = new Context();
        const buffer = context.createBuffer(1, (RATE * CALL_RING_REPEAT_MS) / 1000, RATE);
        fillRing(buffer.getChannelData(0));
        const source = context.createBufferSource();
        source.buffer = buffer;
        source.loop = true;
        source.connect(context.destination);
        source.start();
        // A browser that keeps sound off until the first tap still shows the overlay and vibrates.
        void context.resume().catch(() => undefined);
      }
      const vibrate = () => navigator.vibrate?.([400, 100, 400]);
      vibrate();
      vibrating = setInterval(vibrate, CALL_RING_REPEAT_MS);
    },
    stop() {
      clearInterval(vibrating);
      vibrating = undefined;
      navigator.vibrate?.(0);
      const ending = context;
      context = null;
      void ending?.close().catch(() => undefined);
    },
  };
}
