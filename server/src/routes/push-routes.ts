import type { apiCalls } from '../http/calls.js';
import type { PushService } from '../services/push-service.js';

export function pushRoutes(calls: ReturnType<typeof apiCalls>, services: { push: PushService }): void {
  calls.session('pushkey', 'account.use', async () => ({
    publicKey: (await services.push.loadKeys()).publicKey,
  }));

  calls.session('subscript', 'account.use', async ({ body, actor }) => {
    await services.push.subscribe(actor, body);
    return { status: 'OK' };
  });

  calls.session('push/check', 'account.use', async ({ body, actor }) => ({
    registered: await services.push.registered(actor, body.endpoint),
  }));

  calls.session('pushsettings/get', 'account.use', ({ actor }) => services.push.settings(actor));

  calls.session('pushsettings/update', 'account.use', ({ body: { ssid: _ssid, ...update }, actor }) =>
    services.push.updateSettings(actor, update),
  );
}
