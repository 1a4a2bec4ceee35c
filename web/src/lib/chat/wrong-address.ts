import { setWrongAddress, wrongAddress } from '../wrong-address';
import { api } from '../api-client';

/*
 * The chat socket takes pages of PUBLIC_ORIGIN alone (product.md §15.1), and a browser cannot tell that refusal
 * from any other failed connection. After one, /api/config names the address the server accepts: when this
 * page is elsewhere (the address the server's log printed, the bare domain beside www.), the app says so and
 * names it, instead of promising a reconnect that will never work. The store the root layout reads is
 * lib/wrong-address.ts, part of the entry: this module, with the API client, loads with the member area.
 */

/** Asks the server for its address; resolves to it when this page is not at it, else null. */
export async function checkAddress(): Promise<string | null> {
  try {
    const { publicOrigin } = await api('config', {});
    setWrongAddress(publicOrigin && publicOrigin !== location.origin ? publicOrigin : null);
  } catch {
    setWrongAddress(null);
  }
  return wrongAddress();
}

/** A connection worked: this address is the right one. */
export const clearWrongAddress = (): void => setWrongAddress(null);
