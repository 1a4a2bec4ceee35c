// @vitest-environment jsdom
import { DEFAULT_HOURS, jaMember, type BusinessHours } from '@enishi/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '@/lib/session';
import { CourseImages } from './course-images';

/* The course page states the club's hours as the admin set them on /calendar (product.md §1.8, §9.3). */

const SLOW = { timeout: 10_000 };

function open(hours: BusinessHours) {
  setSession({ uid: 5, role: 101, rank: 1, name: '山田太郎', session: 's', image: null });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      if (url === '/api/calendar') return Promise.resolve(Response.json({ closingDays: [], hours }));
      if (url === '/api/config') {
        return Promise.resolve(
          Response.json({ memberSiteLinks: {}, courseImages: [], publicOrigin: '', iceServers: [] }),
        );
      }
      return new Promise(() => {});
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CourseImages />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the course page', { timeout: 30_000 }, () => {
  it('states the hours the admin set, not fixed ones', async () => {
    const saturdays = DEFAULT_HOURS.map((day, weekday) =>
      weekday === 6 ? { open: true, opens: '10:00', closes: '17:00' } : day,
    );
    open(saturdays);
    const line = jaMember.course.hours('月〜金 12:00〜20:00、土 10:00〜17:00（日曜・祝日休み）');
    expect(await screen.findByText(line, {}, SLOW)).toBeTruthy();
  });

  it('states the default hours for a club that never set any', async () => {
    open(DEFAULT_HOURS);
    expect(
      await screen.findByText(jaMember.course.hours('12:00〜20:00（日曜・祝日休み）'), {}, SLOW),
    ).toBeTruthy();
  });
});
