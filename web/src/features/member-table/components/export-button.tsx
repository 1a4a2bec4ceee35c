import { jaMember } from '@enishi/contract';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { exportMembers, type MemberExportQuery } from '../api/export-members';

const t = jaMember.table;

/** CSVエクスポート: every member the filters match, not just this page (product.md §2.8). */
export function ExportButton({ query }: { query: MemberExportQuery }) {
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    try {
      toastSuccess(t.exported(await exportMembers(query)));
    } catch (error) {
      toast(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button type="button" variant="secondary" busy={busy} disabled={busy} onClick={() => void run()}>
      {busy ? t.exporting : t.exportCsv}
    </Button>
  );
}
