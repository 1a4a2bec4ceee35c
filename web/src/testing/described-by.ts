/**
 * The text of the elements a control's aria-describedby names, as a screen reader reads it after the name:
 * for tests that a greyed-out button or a field says why, or what it expects.
 */
export function describedBy(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}
