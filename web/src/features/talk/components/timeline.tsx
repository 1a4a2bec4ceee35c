import { ja } from '@enishi/contract';
import {
  elementScroll,
  useVirtualizer,
  type ReactVirtualizer,
  type Virtualizer,
} from '@tanstack/react-virtual';
import { useCallback, useEffect, useImperativeHandle, useRef, type Ref, type RefObject } from 'react';
import { ChevronLeftIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import type { TimelineRow } from '../utils/timeline';
import { TimelineRowView, type RowActions } from './timeline-row';
import './timeline.css';
import { Phrases } from '@/components/ui/phrases';

export type TimelineHandle = {
  scrollToEnd: () => void;
  /** Brings a loaded message into view, marks and focuses it; false when it is not loaded. */
  showMessage: (messageId: number) => boolean;
};

/** First guesses of row heights; every row is measured once drawn. */
function estimateSize(row: TimelineRow | undefined): number {
  if (!row) return 72;
  const day = row.day ? 44 : 0;
  switch (row.kind) {
    case 'call':
      return day + 40;
    case 'auto':
      return day + 140;
    case 'message':
      return day + (row.message.image.length > 0 ? 260 : 72);
    case 'pending':
      return day + (row.entry.image.length > 0 ? 260 : 72);
  }
}

/** Frames to wait for a row scrolled to to be drawn (a virtualised row appears after the scroll). */
const FIND_FRAMES = 30;

/** Marks a drawn message as the one looked for (a short highlight) and moves focus to it. */
function markFound(scroller: HTMLElement, messageId: number, frames = FIND_FRAMES): void {
  const found = scroller.querySelector<HTMLElement>(`[data-message-id="${messageId}"]`);
  if (!found) {
    if (frames > 0) requestAnimationFrame(() => markFound(scroller, messageId, frames - 1));
    return;
  }
  found.tabIndex = -1;
  found.focus({ preventScroll: true });
  found.dataset.found = '';
  found.addEventListener('animationend', () => delete found.dataset.found, { once: true });
}

/** Closer to the newest message than this counts as "at the end": new messages keep it in view. */
const AT_END_PX = 48;
/** Further than this from the end, a button offers the way back to the newest message. */
const FAR_FROM_END_PX = 600;

/**
 * The composer growing (a longer comment, the reply bar) makes the timeline shorter: a reader who was at
 * the end stays at the end, so the newest messages are not hidden and new ones keep following.
 */
function useStayAtEnd(scroller: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    let atEnd = true;
    let height = element.clientHeight;
    const onScroll = () => {
      atEnd = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_END_PX;
    };
    const observer = new ResizeObserver(() => {
      if (element.clientHeight < height && atEnd) element.scrollTop = element.scrollHeight;
      height = element.clientHeight;
      onScroll();
    });
    observer.observe(element);
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', onScroll);
    };
  }, [scroller]);
}

type RowVirtualizer = ReactVirtualizer<HTMLDivElement, Element>;

/**
 * A row's height from its ResizeObserver entry (border box); drawn and not yet observed, the height known of
 * it or its first guess. Never read from the element itself: reading `offsetHeight` while React commits
 * forces a layout of the whole talk in the middle of the commit (product.md §15.6, the talk opening fast).
 * The observer reports every drawn row before the frame is painted, so a guess is corrected unseen.
 */
function measureRow(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  virtualizer: Virtualizer<HTMLDivElement, Element>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const index = virtualizer.indexFromElement(element);
  return (
    virtualizer.itemSizeCache.get(virtualizer.options.getItemKey(index)) ??
    virtualizer.options.estimateSize(index)
  );
}

/**
 * Only the rows in and near view are drawn, measured as they are; a chat keeps to its end. The virtualizer
 * places the rows and sizes the column itself, in the document (`directDomUpdates`): rows the observer
 * measured are placed again before the frame is painted, so a first guess is never seen, and React draws the
 * timeline again only when other rows come into view, not for every row measured.
 */
function useRowVirtualizer(rows: TimelineRow[], scroller: RefObject<HTMLDivElement | null>): RowVirtualizer {
  const scrolled = useRef(false);
  // The virtualizer is read afresh on every render; this component is not memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  return useVirtualizer({
    directDomUpdates: true,
    // The scroller's size from its observer too, a phone's screen until then: not read while React commits.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    observeElementRect: (virtualizer, onRect) => {
      const element = virtualizer.scrollElement;
      if (!element) return;
      const observer = new ResizeObserver(([entry]) => {
        const box = entry?.borderBoxSize?.[0];
        if (box) onRect({ width: Math.round(box.inlineSize), height: Math.round(box.blockSize) });
      });
      observer.observe(element);
      return () => observer.disconnect();
    },
    // A new scroller is at its top already: the virtualizer's first write of 0 would lay the talk out at once.
    scrollToFn: (offset, options, virtualizer) => {
      if (!scrolled.current && offset + (options.adjustments ?? 0) === 0) return;
      scrolled.current = true;
      elementScroll(offset, options, virtualizer);
    },
    measureElement: measureRow,
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateSize(rows[index]),
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 8,
    paddingStart: 4,
    paddingEnd: 16,
    // A chat: prepending older rows keeps the reader's row in place, and appending follows the end.
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: AT_END_PX,
  });
}

/** What the talk screen may ask of the timeline: go to the end, or show a loaded message. */
function useTimelineHandle(
  ref: Ref<TimelineHandle> | undefined,
  virtualizer: RowVirtualizer,
  rows: TimelineRow[],
  scroller: RefObject<HTMLDivElement | null>,
) {
  useImperativeHandle(
    ref,
    () => ({
      scrollToEnd: () => virtualizer.scrollToEnd(),
      showMessage: (messageId) => {
        const index = rows.findIndex((row) => row.kind === 'message' && row.message.id === messageId);
        if (index < 0 || !scroller.current) return false;
        virtualizer.scrollToIndex(index, { align: 'center' });
        markFound(scroller.current, messageId);
        return true;
      },
    }),
    [virtualizer, rows, scroller],
  );
}

/** The talk opens at its newest message; the returned ref says whether it has opened. */
function useOpenAtEnd(
  count: number,
  virtualizer: RowVirtualizer,
  scroller: RefObject<HTMLDivElement | null>,
): RefObject<boolean> {
  const opened = useRef(false);
  useEffect(() => {
    const element = scroller.current;
    if (opened.current || count === 0 || !element) return;
    // Once the rows are laid out (the observer reports after layout, before paint), so that finding the end
    // reads no layout in the middle of React's work.
    const observer = new ResizeObserver(() => {
      observer.disconnect();
      if (opened.current) return;
      opened.current = true;
      virtualizer.scrollToEnd();
    });
    observer.observe(element.firstElementChild ?? element);
    return () => observer.disconnect();
  }, [count, virtualizer, scroller]);
  return opened;
}

/** Far from the end: the way back to the newest message. */
function ToLatestButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="timeline__to-end" onClick={onClick}>
      <ChevronLeftIcon size={18} className="timeline__to-end-icon" />
      {ja.talk.toLatest}
    </button>
  );
}

/**
 * The messages of a talk as a `log` region. Only the rows in and near view are in the document (a talk of
 * thousands of messages scrolls as smoothly as a short one); rows are measured as they are drawn. Opening a
 * talk shows its end; older pages load when the top comes into view, and the row being read stays where it
 * is when they arrive; while the reader is at the end, new messages keep it in view.
 */
export function Timeline({
  rows,
  actions,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  ref,
}: {
  rows: TimelineRow[];
  actions: RowActions;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  ref?: Ref<TimelineHandle>;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useRowVirtualizer(rows, scroller);
  useTimelineHandle(ref, virtualizer, rows, scroller);
  const opened = useOpenAtEnd(rows.length, virtualizer, scroller);

  useStayAtEnd(scroller);

  const items = virtualizer.getVirtualItems();
  // The column whose height the virtualizer sets.
  const sizer = useCallback((node: HTMLDivElement | null) => virtualizer.containerRef(node), [virtualizer]);
  // The first row is drawn (in view, or just above it): the page before it is fetched ahead of the reader.
  const topInView = items[0]?.index === 0;
  useEffect(() => {
    if (opened.current && topInView && hasOlder && !loadingOlder) onLoadOlder();
  }, [opened, topInView, hasOlder, loadingOlder, onLoadOlder]);

  // From what the virtualizer knows (the scroller's own range is a layout read while React draws).
  const distanceFromEnd =
    virtualizer.getTotalSize() - (virtualizer.scrollOffset ?? 0) - (virtualizer.scrollRect?.height ?? 0);
  const farFromEnd = rows.length > 0 && distanceFromEnd > FAR_FROM_END_PX;

  return (
    <div className="timeline">
      <div
        ref={scroller}
        className="timeline__scroller inset-focus"
        role="log"
        aria-live="polite"
        aria-label={ja.talk.timeline}
        aria-busy={loadingOlder || undefined}
        tabIndex={0}
      >
        {rows.length === 0 ? (
          <p className="timeline__empty">
            <Phrases text={ja.talk.noMessages} />
          </p>
        ) : null}
        <div className="timeline__sizer" ref={sizer}>
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className="timeline__row"
              >
                <TimelineRowView row={row} actions={actions} />
              </div>
            );
          })}
        </div>
      </div>
      {loadingOlder ? (
        <div className="timeline__older">
          <Spinner label={ja.talk.loadingOlder} />
        </div>
      ) : null}
      {farFromEnd ? <ToLatestButton onClick={() => virtualizer.scrollToEnd({ behavior: 'smooth' })} /> : null}
    </div>
  );
}
