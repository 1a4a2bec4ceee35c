import { jaMember, type SettingRow } from '@enishi/contract';
import { Link } from 'react-router';
import './setting.css';

/**
 * The woman of a request on the staff screens: a link to her member record, or, for a woman only the enquiry
 * service knows (product.md §19.11, decision 023), her name there and her number in the service.
 */
export function WomanLink({ woman }: { woman: SettingRow['women'] }) {
  if (woman.uid === null) {
    return (
      <span className="setting-woman--service">
        {woman.name}
        {woman.enquiry_id === null ? null : (
          <span className="setting-woman__service"> {jaMember.setting.fromService(woman.enquiry_id)}</span>
        )}
      </span>
    );
  }
  return <Link to={`/women/edit?id=${woman.uid}`}>{woman.name}</Link>;
}
