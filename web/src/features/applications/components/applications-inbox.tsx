import { ja, type ApplicationRow, jaMember } from '@enishi/contract';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { MoreButton } from '@/components/ui/more-button';
import { Spinner } from '@/components/ui/spinner';
import { useApplications, useHandleApplication } from '@/lib/applications';
import './applications.css';
import { Phrases } from '@/components/ui/phrases';
import { japanFormat } from '@/lib/japan-date';

const t = jaMember.profile.applications;
const dateFormat = japanFormat({
  month: 'numeric',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** Where "会員登録へ" leads: the add form of the kind, with the applicant's name and the application's id. */
export function memberAddPath(row: Pick<ApplicationRow, 'id' | 'type' | 'name'>): string {
  const params = new URLSearchParams({ name: row.name, application: String(row.id) });
  return `/${row.type === 'male' ? 'men' : 'women'}/add?${params.toString()}`;
}

/** /applications: applications from the intro pages, newest first, new ones marked (product.md §11.6). */
export function ApplicationsInbox() {
  const list = useApplications();
  const handle = useHandleApplication();
  const navigate = useNavigate();
  if (list.isPending) return <Spinner label={ja.app.loading} />;
  if (list.isError) {
    return (
      <p className="notice-box" role="alert">
        <Phrases text={errorMessage(list.error)} />
      </p>
    );
  }
  const rows = list.data.pages.flatMap((page) => page.rows);
  const markHandled = (row: ApplicationRow) =>
    handle.mutate(
      { id: row.id },
      { onSuccess: () => toast(t.markedHandled), onError: (e) => toast(errorMessage(e)) },
    );

  return (
    <div className="applications">
      {rows.length === 0 ? (
        <p className="notice-box">
          <Phrases text={t.empty} />
        </p>
      ) : null}
      <ol className="card-list applications__rows" aria-label={ja.menu.applications}>
        {rows.map((row) => (
          <li key={row.id} className="applications__row" data-handled={row.handled || undefined}>
            <p className="applications__head">
              {row.handled ? (
                <span className="applications__state">{t.handled}</span>
              ) : (
                <span className="applications__state applications__state--new">{t.newBadge}</span>
              )}
              <span className={`applications__type applications__type--${row.type}`}>
                {row.type === 'male' ? t.male : t.female}
              </span>
              <span className="applications__name">{row.name}</span>
              <span className="applications__age">{t.age(row.age)}</span>
            </p>
            <p className="applications__contact">
              <a href={`mailto:${row.email}`}>{row.email}</a>
              <a href={`tel:${row.tel}`}>{row.tel}</a>
              <time dateTime={row.created_at}>{dateFormat.format(new Date(row.created_at))}</time>
            </p>
            {row.handled ? null : (
              <div className="applications__actions">
                <Button variant="secondary" busy={handle.isPending} onClick={() => markHandled(row)}>
                  {t.markHandled}
                </Button>
                <Button onClick={() => void navigate(memberAddPath(row))}>{t.makeMember}</Button>
              </div>
            )}
          </li>
        ))}
      </ol>
      <MoreButton query={list}>{t.more}</MoreButton>
    </div>
  );
}
