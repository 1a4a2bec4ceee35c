import { ja, type NewsRow, can, jaMember } from '@enishi/contract';
import { useEffect } from 'react';
import { errorMessage } from '@/lib/api-client';
import { saveNews, savedNews } from '@/lib/chat/history';
import { dayLabel, japanDateKey } from '@/lib/japan-date';
import { setCounters } from '@/lib/notifications';
import { useNow } from '@/lib/use-now';
import { LinkedText } from '@/components/ui/linked-text';
import { Spinner } from '@/components/ui/spinner';
import { useNews } from '../api/get-news';
import { typeLabel } from '../utils/group';
import './news-feed.css';
import { Phrases } from '@/components/ui/phrases';

/**
 * /news (product.md §2): the news of the member's group, newest first: title, date (今日 or 11月23日(月)), the body
 * as plain text with clickable links, and the images. Opening it marks the news seen, so the badge clears.
 * Staff see every group's news, each marked with its group.
 */
export function NewsFeed({ role }: { role: number }) {
  const news = useNews({});
  const now = useNow();
  const staff = can({ role }, 'content.manage');

  useEffect(() => {
    if (news.isSuccess && !staff) setCounters({ news: 0 });
    // The list last read stays on the device, for reading offline (product.md §13.1).
    if (news.isSuccess) saveNews(news.data);
  }, [news.isSuccess, news.data, news.dataUpdatedAt, staff]);

  // Offline, the query waits (paused) or has failed: the copy kept on the device is shown instead.
  const offline = news.isError || (news.isPending && news.fetchStatus === 'paused');
  const saved = offline ? savedNews() : undefined;
  if (news.isPending && !saved) {
    return news.fetchStatus === 'paused' ? (
      <p className="news-feed__empty">
        <Phrases text={ja.errors.offline} />
      </p>
    ) : (
      <Spinner label={ja.app.loading} />
    );
  }
  if (news.isError && !saved)
    return (
      <p className="news-feed__empty">
        <Phrases text={errorMessage(news.error)} />
      </p>
    );
  const rows = saved ? saved.reply.rows : (news.data?.rows ?? []);
  if (rows.length === 0) {
    return (
      <div className="news-feed__empty">
        <p>
          <Phrases text={jaMember.news.empty} />
        </p>
        <p>
          <Phrases text={jaMember.newsMore.emptyNext} />
        </p>
      </div>
    );
  }

  return (
    <>
      {saved ? (
        <p className="notice-box" role="status">
          <Phrases text={jaMember.newsMore.offlineCopy} />
        </p>
      ) : null}
      <NewsList rows={rows} now={now} staff={staff} />
    </>
  );
}

function NewsList({ rows, now, staff }: { rows: NewsRow[]; now: Date; staff: boolean }) {
  return (
    <ul className="news-feed" role="list" aria-label={jaMember.news.feed}>
      {rows.map((item) => (
        <li key={item.id}>
          <NewsArticle item={item} now={now} showGroup={staff} />
        </li>
      ))}
    </ul>
  );
}

export function NewsArticle({ item, now, showGroup }: { item: NewsRow; now: Date; showGroup?: boolean }) {
  const date = new Date(item.created_at);
  return (
    <article className="paper-card news-article" aria-labelledby={`news-${item.id}`}>
      <header className="news-article__header">
        <time className="news-article__date" dateTime={item.created_at}>
          {dayLabel(japanDateKey(date), now)}
        </time>
        {showGroup ? (
          <span className={`news-article__group news-article__group--${item.type}`}>
            {typeLabel(item.type)}
          </span>
        ) : null}
        <h2 id={`news-${item.id}`} className="news-article__title">
          {item.title}
        </h2>
      </header>
      <p className="news-article__body">
        <LinkedText text={item.body} />
      </p>
      {item.image.length > 0 ? (
        <ul className="news-article__images" role="list">
          {item.image.map((src, index) => (
            <li key={src}>
              <img
                src={src}
                alt={jaMember.news.imageAlt(item.title, index + 1)}
                loading="lazy"
                decoding="async"
              />
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
