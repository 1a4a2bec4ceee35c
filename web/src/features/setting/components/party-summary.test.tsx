// @vitest-environment jsdom
import { emptyProfile, jaMember } from '@enishi/contract';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PartySummaryView } from './party-summary';

/* Staff's summary of each party of a setting request, shown beside the three slots. */

afterEach(cleanup);

const today = '2026-11-24';

describe("staff's summary of the man and the woman of a setting request", () => {
  it('shows her photo, age, area, height and rank', () => {
    const profile = { ...emptyProfile(), birth_date: '2000-05-10', area: 1, height: 162, women_rank: 4 };
    const photos = [{ id: 'p1', url: '/media/p1?sig=x' }];
    render(<PartySummaryView view={{ profile, photos }} woman name="青井 葵" today={today} />);
    const her = screen.getByRole('group', {
      name: jaMember.setting.summaryOf(jaMember.setting.woman, '青井 葵'),
    });
    expect(
      within(her)
        .getByRole('img', { name: jaMember.setting.photoOf('青井 葵') })
        .getAttribute('src'),
    ).toBe('/media/p1?sig=x');
    expect(her.textContent).toContain('26歳 ・ 東京 ・ 162cm ・ ランク VIP');
  });

  it('shows his age, area and occupation, without a rank', () => {
    const profile = { ...emptyProfile(), birth_date: '1980-12-01', area: 6, occupation: 3, women_rank: 0 };
    render(<PartySummaryView view={{ profile, photos: [] }} woman={false} name="山田 太郎" today={today} />);
    const him = screen.getByRole('group', {
      name: jaMember.setting.summaryOf(jaMember.setting.man, '山田 太郎'),
    });
    expect(within(him).queryByRole('img')).toBeNull();
    expect(him.textContent).toContain('45歳 ・ 大阪 ・ 会社経営');
    expect(him.textContent).not.toContain(jaMember.women.rank);
  });

  it('says so when nothing is recorded, and shows only the name while loading', () => {
    render(
      <PartySummaryView
        view={{ profile: emptyProfile(), photos: [] }}
        woman={false}
        name="林 凛"
        today={today}
      />,
    );
    expect(screen.getByText(jaMember.setting.noSummary)).toBeTruthy();
    cleanup();
    render(<PartySummaryView view={undefined} woman name="林 凛" today={today} />);
    expect(screen.getByText('林 凛')).toBeTruthy();
    expect(screen.queryByText(jaMember.setting.noSummary)).toBeNull();
  });
});
