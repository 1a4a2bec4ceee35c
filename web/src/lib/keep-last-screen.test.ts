// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { pageOf } from './keep-last-screen';
import { ja } from '@enishi/contract';
import { LAST_SCREEN_DATA_ID, withOfflineNote } from './last-screen-rules';

/** The kept page of `html` drawn in #root, read back as a document. */
function keptPage(html: string, path = '/talk/staff/7'): Document {
  document.head.innerHTML = '<script type="module" src="/assets/index-abc.js"></script><title>縁</title>';
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = html;
  return new DOMParser().parseFromString(pageOf(root, { path, uid: 42 }), 'text/html');
}

describe("a member's last screen, as the page keeps it (product.md §15.6)", () => {
  it('keeps the screen with this build’s head and whose it is', () => {
    const page = keptPage('<main><h1>スタッフ</h1></main>');
    expect(page.querySelector('#root h1')?.textContent).toBe('スタッフ');
    expect(page.head.querySelector('script[type="module"]')?.getAttribute('src')).toBe(
      '/assets/index-abc.js',
    );
    expect(JSON.parse(page.getElementById(LAST_SCREEN_DATA_ID)?.textContent ?? '')).toEqual({
      path: '/talk/staff/7',
      uid: 42,
    });
  });

  it('leaves out what was there for the moment: toasts, the offline note, alerts, scripts', () => {
    const page = keptPage(
      '<main><p>残る</p><div class="toasts" role="status"><p>送信しました</p></div>' +
        '<p class="offline-notice" role="alert">オフラインです</p><script>1</script></main>',
    );
    expect(page.querySelector('#root main')?.textContent).toBe('残る');
    expect(page.querySelectorAll('#root script')).toHaveLength(0);
  });

  it('drops inline styles (the policy refuses them) and shows a talk from its end', () => {
    const page = keptPage(
      '<div role="log"><div class="timeline__sizer" style="height: 900px">' +
        '<div class="timeline__row" style="transform: translateY(40px)"><article data-message-id="1">こんにちは</article></div></div></div>',
    );
    expect(page.querySelectorAll('#root [style]')).toHaveLength(0);
    expect(page.querySelector('[role="log"]')?.hasAttribute('data-kept-at-end')).toBe(true);
    expect(page.querySelector('article')?.textContent).toBe('こんにちは');
  });

  it('words that look like markup stay words, and cannot end the data block', () => {
    const page = keptPage(
      '<p>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>',
      '/talk/staff/</script>',
    );
    expect(page.querySelector('#root p')?.textContent).toBe('</script><script>alert(1)</script>');
    expect(page.querySelectorAll('script')).toHaveLength(2);
    expect(JSON.parse(page.getElementById(LAST_SCREEN_DATA_ID)?.textContent ?? '').path).toBe(
      '/talk/staff/</script>',
    );
  });

  it('keeps the offline note hidden, and the worker shows it and nothing else offline', () => {
    document.head.innerHTML = '<script type="module" src="/assets/index-abc.js"></script>';
    const root = document.createElement('div');
    // A message quoting the note's markup stays a message.
    root.innerHTML = '<p>data-kept-offline-note="" hidden=""</p>';
    const kept = pageOf(root, { path: '/', uid: 42 });
    const read = (html: string) => new DOMParser().parseFromString(html, 'text/html');
    const note = (page: Document) => page.querySelector('#root [role="alert"].offline-notice');
    expect(note(read(kept))?.textContent).toBe(ja.app.offline);
    expect(note(read(kept))?.hasAttribute('hidden')).toBe(true);

    const offline = read(withOfflineNote(kept));
    expect(note(offline)?.hasAttribute('hidden')).toBe(false);
    expect(offline.querySelector('#root p')?.textContent).toBe('data-kept-offline-note="" hidden=""');
  });
});
