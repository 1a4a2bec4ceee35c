import type { apiCalls } from '../http/calls.js';
import { presentSetting } from '../presenters/setting-presenter.js';
import type { SettingService } from '../services/setting-service.js';
import { siteKindOf, type SiteKinds } from './women-routes.js';

/** Setting requests (product.md §18): a man asks, staff arrange or decline, the man may cancel. */
export function settingRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { settings: SettingService },
  siteKinds: SiteKinds,
): void {
  // A man may ask only for a woman the site he uses shows him.
  calls.session('setting/add', 'setting.request', async ({ body, actor, request }) => ({
    id: await services.settings.add(actor, siteKindOf(siteKinds, request), body),
  }));

  calls.session('setting/list', 'setting.read', async ({ body, actor }) => {
    const page = await services.settings.list(actor, body.status, body.page, body.member);
    return { rows: page.rows.map(presentSetting), isEnd: page.isEnd, requested: page.requested };
  });

  calls.session('setting/update', 'setting.read', async ({ body, actor }) => ({
    row: presentSetting(await services.settings.update(actor, body)),
  }));
}
