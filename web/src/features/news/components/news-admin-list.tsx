import { ja, type ContentGroup, type NewsRow, jaMember } from '@enishi/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { dayLabel, japanDateKey } from '@/lib/japan-date';
import { toast, toastSuccess } from '@/lib/toast';
import { useNow } from '@/lib/use-now';
import { Button, ButtonLink } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { useDeleteNews } from '../api/delete-news';
import { useNews } from '../api/get-news';
import { typeOf } from '../utils/group';
import './news-admin.css';
import { Phrases } from '@/components/ui/phrases';

/**
 * /news/men/list, /news/women/list (product.md §4): the group's news with an add button; choose one item, then
 * edit it or delete it (after 本当に削除してよろしいですか？).
 */
export function NewsAdminList({ group }: { group: ContentGroup }) {
  const news = useNews({ type: typeOf(group) });
  const remove = useDeleteNews();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const now = useNow();
  const [selected, setSelected] = useState<number | null>(null);
  const rows = news.data?.rows ?? [];
  const chosen = rows.some((row) => row.id === selected) ? selected : null;

  function edit() {
    if (chosen === null) return toast(jaMember.news.noSelection);
    void navigate(`/news/${group}/edit?id=${chosen}`);
  }

  async function onDelete() {
    if (chosen === null) return toast(jaMember.news.noSelection);
    if (!(await confirm({ message: jaMember.news.deleteConfirm, confirmLabel: jaMember.news.delete })))
      return;
    remove.mutate(chosen, {
      onSuccess: () => {
        setSelected(null);
        toastSuccess(jaMember.news.deleted);
      },
      onError: (error) => toast(errorMessage(error)),
    });
  }

  return (
    <div className="news-admin">
      <ButtonLink to={`/news/${group}/add`} variant="accent" block>
        {jaMember.news.add}
      </ButtonLink>

      {news.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : news.isError ? (
        <p className="news-admin__empty">
          <Phrases text={errorMessage(news.error)} />
        </p>
      ) : rows.length === 0 ? (
        <p className="news-admin__empty">
          <Phrases text={jaMember.news.empty} />
        </p>
      ) : (
        <NewsChoices rows={rows} chosen={chosen} onChoose={setSelected} now={now} />
      )}

      <div className="news-admin__actions">
        <Button variant="secondary" onClick={edit}>
          {jaMember.news.edit}
        </Button>
        <Button
          variant="quiet"
          onClick={() => void onDelete()}
          busy={remove.isPending}
          disabled={remove.isPending}
        >
          {jaMember.news.delete}
        </Button>
      </div>
    </div>
  );
}

/** The news as radio buttons: the one chosen is edited or deleted. */
function NewsChoices({
  rows,
  chosen,
  onChoose,
  now,
}: {
  rows: NewsRow[];
  chosen: number | null;
  onChoose: (id: number) => void;
  now: Date;
}) {
  return (
    <fieldset className="news-admin__list plain-fieldset">
      <legend className="visually-hidden">{jaMember.news.list}</legend>
      {rows.map((row) => (
        <label key={row.id} className="news-admin__item">
          <input
            type="radio"
            name="news"
            value={row.id}
            checked={chosen === row.id}
            onChange={() => onChoose(row.id)}
          />
          <span className="news-admin__item-text">
            <span className="news-admin__item-title">{row.title}</span>
            <span className="news-admin__item-date">{dayLabel(japanDateKey(row.created_at), now)}</span>
          </span>
          {row.image[0] ? <img src={row.image[0]} alt="" className="news-admin__thumb" /> : null}
        </label>
      ))}
    </fieldset>
  );
}
