import { jaMember, type NoticeRow } from '@enishi/contract';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';
import './security.css';
import { japanFormat } from '@/lib/japan-date';

/** When a notice was made: day and time in Japan. */
const when = (instant: string) =>
  japanFormat({
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(instant));

/**
 * アカウントのお知らせ (product.md §11.8): a change to how the person logs in made on another device, or their
 * second step locked after wrong codes, shown above the screen until they dismiss it. Its own chunk, loaded by
 * account-notices-host.tsx only when there is a notice to show.
 */
export default function AccountNoticeList({
  rows,
  onRows,
}: {
  rows: NoticeRow[];
  onRows: (rows: NoticeRow[]) => void;
}) {
  async function dismiss(id: number) {
    try {
      onRows((await api('notices/dismiss', { id })).rows);
    } catch (error) {
      toast(errorMessage(error));
    }
  }

  return (
    <section className="account-notices" aria-label={jaMember.reauth.noticesTitle}>
      {rows.map((row) => (
        <div key={row.id} className="account-notices__item" role="status">
          <p>
            <Phrases text={jaMember.reauth.notices[row.kind]} />{' '}
            <time dateTime={row.created_at}>{when(row.created_at)}</time>{' '}
            <Phrases text={jaMember.reauth.noticeUnknown} />
          </p>
          <Button variant="secondary" onClick={() => void dismiss(row.id)}>
            {jaMember.reauth.noticeDismiss}
          </Button>
        </div>
      ))}
    </section>
  );
}
