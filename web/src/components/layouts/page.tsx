import { ja } from '@enishi/contract';
import { useEffect, useRef, type ReactNode } from 'react';
import { cx } from '@/components/ui/class-names';
import './page.css';

let firstPage = true;

type PageProps = {
  title: string;
  /** The tab title when it should differ from the heading. */
  documentTitle?: string;
  lead?: ReactNode;
  /** Heading shown for assistive tech only (the screen has its own visual title). */
  hideTitle?: boolean;
  children?: ReactNode;
};

/**
 * A screen's heading: sets the document title and moves focus to the heading after navigating here, so
 * screen readers start reading the new screen (the first load keeps the browser's own focus).
 */
export function useScreenHeading(documentTitle: string) {
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = `${documentTitle} | ${ja.app.name}`;
  }, [documentTitle]);

  useEffect(() => {
    if (!firstPage) heading.current?.focus({ preventScroll: true });
    firstPage = false;
  }, []);

  return heading;
}

/** One screen: its heading, the document title, and focus moved to the heading after navigating here. */
export function Page({ title, documentTitle, lead, hideTitle, children }: PageProps) {
  const heading = useScreenHeading(documentTitle ?? title);

  return (
    <div className="page">
      <header className={cx('page__header', hideTitle && 'visually-hidden')}>
        <h1 ref={heading} tabIndex={-1} className="page__title">
          {title}
        </h1>
        {lead ? <p className="page__lead">{lead}</p> : null}
      </header>
      {children}
    </div>
  );
}
