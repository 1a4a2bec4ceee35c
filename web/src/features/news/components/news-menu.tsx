import { jaMember } from '@enishi/contract';
import { ButtonLink } from '@/components/ui/button';
import { GROUPS, groupLabel } from '../utils/group';
import './news-admin.css';
import { Phrases } from '@/components/ui/phrases';

/** /news/menu: choose the men's or the women's news. */
export function NewsMenu() {
  return (
    <div className="news-admin">
      <p className="news-admin__lead">
        <Phrases text={jaMember.news.menuLead} />
      </p>
      <ul className="news-admin__menu" role="list">
        {GROUPS.map((group) => (
          <li key={group}>
            <ButtonLink to={`/news/${group}/list`} variant={group === 'men' ? 'primary' : 'rose'} block>
              {groupLabel(group)}
            </ButtonLink>
          </li>
        ))}
      </ul>
    </div>
  );
}
