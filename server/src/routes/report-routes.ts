import type { apiCalls } from '../http/calls.js';
import type { ReportService } from '../services/report-service.js';

/** Reports (product.md §2.9): a month's figures for the admin and the owner (report.view). */
export function reportRoutes(calls: ReturnType<typeof apiCalls>, services: { reports: ReportService }): void {
  calls.session('reports', 'report.view', async ({ body, actor }) =>
    services.reports.month(actor, body.month),
  );
}
