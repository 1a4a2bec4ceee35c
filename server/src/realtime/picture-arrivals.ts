import type { AssemblyEvents } from './frame-assembly.js';
import type { ChatGateway, HeldSocket } from './chat-gateway.js';
import { leastPicturesIn } from './frame-size.js';

/** What the socket tells of itself. */
export interface PictureSocket {
  closed(): boolean;
  /** The user the socket is counted for; null before the session. */
  uid(): number | null;
  /** A socket carrying a call takes no turns: it is never left unread (its pings must be answered). */
  carryingCall(): boolean;
  /** Leaves the socket unread until its `pictureTurnCame`. */
  waitTurn(): void;
}

/** What a message carries of the pictures taken in at their header (`PictureArrivals.message`). */
export interface ArrivedMessage {
  /** Its frame was let go unread: the message is to be refused (画像の送信が続いています…); it carries none. */
  letGo: boolean;
  /** Its pictures are counted by the member's budget now, or never will be (called once or more). */
  counted(): void;
}

/**
 * The frames of pictures (1 MB or more) arriving on one socket, from their header on (product.md §15.7 item
 * 5). A frame is taken in only when the member's budget has room for its pictures after those of their frames
 * taken in before it and not yet counted; otherwise its bytes are let go as they arrive and it is refused once
 * whole. A flood's frames refused only when whole were copied first, 27 MB each into memory the process had
 * not had, on the event loop. Those taken in arrive one per member at a time (ChatGateway.takePictureTurn).
 */
export class PictureArrivals implements AssemblyEvents {
  /** Pictures expected on this socket (ChatGateway.expectPictures): in all, arriving now, whole since. */
  #expected = 0;
  #arriving = 0;
  #arrived = 0;
  #letGo = false;

  constructor(
    private readonly gateway: ChatGateway,
    /** The socket as the gateway holds it, and what it tells of itself. */
    private readonly held: HeldSocket,
    private readonly socket: PictureSocket,
  ) {}

  async started(length: number, canLetGo: boolean): Promise<boolean> {
    const uid = this.socket.uid();
    if (uid === null) return true;
    // A fragment is taken in whatever the budget (browsers send none): the check made when whole refuses it.
    if (!canLetGo) return this.#takeTurn(uid);
    const count = leastPicturesIn(length);
    this.#expected += count;
    const earlier = this.gateway.expectPictures(uid, count);
    const room = await this.gateway.services.fairUse
      .roomForPictures(uid, earlier, count)
      .catch((error: unknown) => {
        // Taken in: the check made when it is whole answers for it.
        this.gateway.log.error({ err: error }, 'picture budget not read');
        return true;
      });
    if (!room || this.socket.closed()) {
      this.#came(count);
      return false;
    }
    this.#arriving += count;
    return this.#takeTurn(uid);
  }

  whole(kept: boolean): void {
    const uid = this.socket.uid();
    if (!kept) this.#letGo = true;
    else if (uid !== null) this.gateway.givePictureTurn(uid, this.held);
    this.#arrived += this.#arriving;
    this.#arriving = 0;
  }

  /** The socket gives a message: what it carries of the frames whole since the last one. */
  message(): ArrivedMessage {
    const count = this.#arrived;
    const letGo = this.#letGo;
    this.#arrived = 0;
    this.#letGo = false;
    let counted = false;
    return {
      letGo,
      counted: () => {
        if (!counted) this.#came(count);
        counted = true;
      },
    };
  }

  /** The socket closes: none of its expected pictures will come. Call before it lets go of its user. */
  dispose(): void {
    this.#came(this.#expected);
  }

  #takeTurn(uid: number): true {
    if (!this.socket.carryingCall() && !this.gateway.takePictureTurn(uid, this.held)) this.socket.waitTurn();
    return true;
  }

  #came(count: number): void {
    const uid = this.socket.uid();
    if (count === 0 || uid === null) return;
    this.#expected -= count;
    this.gateway.picturesCame(uid, count);
  }
}
