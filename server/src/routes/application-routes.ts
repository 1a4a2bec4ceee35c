import type { apiCalls } from '../http/calls.js';
import { presentApplication } from '../presenters/application-presenter.js';
import type { ApplicationService } from '../services/application-service.js';

export function applicationRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { applications: ApplicationService },
): void {
  // Public: prospective members apply from the intro pages without an account.
  calls.open('entry', async ({ body, request }) => {
    await services.applications.submit(body, request.ip);
    return { status: 'OK' };
  });

  calls.session('applications', 'member.manage', async ({ body, actor }) => {
    const page = await services.applications.list(actor, body.page);
    return { rows: page.rows.map(presentApplication), isEnd: page.isEnd, newCount: page.newCount };
  });

  calls.session('applications/handle', 'member.manage', async ({ body, actor }) => {
    await services.applications.markHandled(actor, body.id, body.member_uid);
    return { status: 'OK' };
  });
}
