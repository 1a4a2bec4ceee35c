import { DEFAULT_PUSH_SETTINGS, ja, type PushSettings, type PushSettingsUpdateBody } from '@enishi/contract';
import type { PushSubscriptionJson } from '@enishi/contract';
import webPush from 'web-push';
import type { Config } from '../config.js';
import { badRequest, notFound } from '../errors.js';
import type { PushRepository } from '../repositories/push-repository.js';
import type { SecretRepository } from '../repositories/secret-repository.js';
import type { Actor } from './session-service.js';
import { checkedPushEndpoint } from '../lib/push-endpoint.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The subscription calls and each person's choice of what they receive (product.md §16). */
export class PushService {
  private keys: VapidKeys | null = null;

  constructor(
    private readonly repository: PushRepository,
    private readonly secrets: SecretRepository,
    private readonly config: Config['push'],
  ) {}

  /**
   * The VAPID pair: from the environment, or made once and stored, so that every instance and every
   * restart signs with the key the browsers subscribed with.
   */
  async loadKeys(): Promise<VapidKeys> {
    if (this.keys) return this.keys;
    if (this.config.vapidKeys) return (this.keys = this.config.vapidKeys);
    const stored = await this.secrets.getOrCreate('vapid-keys', JSON.stringify(webPush.generateVAPIDKeys()));
    this.keys = JSON.parse(stored) as VapidKeys;
    return this.keys;
  }

  /** Stores this device's subscription for the caller and drops the one it replaces. */
  async subscribe(
    actor: Actor,
    body: {
      userId?: number;
      subscript?: PushSubscriptionJson | null;
      oldSubscript?: PushSubscriptionJson | null;
    },
  ): Promise<void> {
    if (body.userId !== undefined && body.userId !== actor.uid) throw notFound();
    if (body.subscript) this.checkEndpoint(body.subscript.endpoint);
    if (body.oldSubscript) await this.repository.remove(actor.uid, body.oldSubscript.endpoint);
    if (body.subscript) {
      const { endpoint, keys } = body.subscript;
      await this.repository.save({
        endpoint,
        userId: actor.uid,
        p256dh: keys.p256dh,
        auth: keys.auth,
        sessionId: actor.sessionId,
      });
    }
  }

  /** Whether this device's endpoint is registered for the caller's session: the truth the mypage card tells. */
  async registered(actor: Actor, endpoint: string): Promise<boolean> {
    return this.repository.registered(actor.uid, actor.sessionId, endpoint);
  }

  /** Logout: the device that logs out stops receiving pushes for this person. */
  async unsubscribe(actor: Actor, subscription: PushSubscriptionJson | null | undefined): Promise<void> {
    if (subscription) await this.repository.remove(actor.uid, subscription.endpoint);
  }

  async settings(actor: Actor): Promise<PushSettings> {
    const stored = await this.repository.settingsOf([actor.uid]);
    return stored.get(actor.uid) ?? DEFAULT_PUSH_SETTINGS;
  }

  async updateSettings(actor: Actor, update: Omit<PushSettingsUpdateBody, 'ssid'>): Promise<PushSettings> {
    const current = await this.settings(actor);
    const next: PushSettings = {
      show_text: update.show_text ?? current.show_text,
      kinds: { ...current.kinds, ...update.kinds },
    };
    await this.repository.saveSettings(actor.uid, next);
    return next;
  }

  /** The server never posts to an address a client chose: https on a known push service only. */
  private checkEndpoint(endpoint: string): void {
    if (checkedPushEndpoint(endpoint, this.config.allowedHosts) === null) throw badRequest(ja.push.badHost);
  }
}
