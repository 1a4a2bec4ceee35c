import { LIMITS } from '@enishi/contract';
import { useEffect, useRef, type MouseEvent, type PointerEvent } from 'react';

/** A finger that moves this far is scrolling, not pressing. */
const MOVE_TOLERANCE_PX = 10;
/** A contextmenu this soon after a long press is the phone's own for the same press. */
const AFTERMATH_MS = 1000;

/**
 * Opens a message's menu by pressing it for 500 ms (product.md §9), or by the context menu (right click, the
 * keyboard's menu key). The click that ends a long press is swallowed, so it does not also open a link or an
 * image.
 */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const start = useRef<{ x: number; y: number } | null>(null);
  const firedAt = useRef(0);
  /** The press opened the menu: the click that ends it is not a tap. */
  const swallowClick = useRef(false);
  const latest = useRef(onLongPress);
  useEffect(() => {
    latest.current = onLongPress;
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  const cancel = () => {
    clearTimeout(timer.current);
    start.current = null;
  };

  return {
    onPointerDown(event: PointerEvent) {
      if (event.button !== 0) return;
      swallowClick.current = false;
      start.current = { x: event.clientX, y: event.clientY };
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        firedAt.current = Date.now();
        swallowClick.current = true;
        start.current = null;
        latest.current();
      }, LIMITS.longPressMs);
    },
    onPointerMove(event: PointerEvent) {
      const from = start.current;
      if (from && Math.hypot(event.clientX - from.x, event.clientY - from.y) > MOVE_TOLERANCE_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onPointerLeave: cancel,
    onContextMenu(event: MouseEvent) {
      event.preventDefault();
      cancel();
      if (Date.now() - firedAt.current < AFTERMATH_MS) return;
      latest.current();
    },
    onClickCapture(event: MouseEvent) {
      if (!swallowClick.current) return;
      swallowClick.current = false;
      event.preventDefault();
      event.stopPropagation();
    },
  };
}
