import { api } from '@/lib/api-client';
import { sendFrame } from '@/lib/chat/live-socket';
import { CallController } from './call-controller';
import { createBrowserPeer } from './peer';
import { createAudioRinger } from './ringer';

/** The app's call controller with the browser's peer and ringer: its own chunk, loaded by the first call. */
export function createController(): CallController {
  return new CallController({
    send: sendFrame,
    // Fetched for every call: TURN credentials expire (product.md §17.5).
    peerOptions: async () => ({ iceServers: (await api('config', {})).iceServers }),
    createPeer: createBrowserPeer,
    ringer: createAudioRinger(),
  });
}
