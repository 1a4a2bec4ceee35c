import { useLocation } from 'react-router';
import { RecipientPicker } from '@/features/broadcast/components/recipient-picker';
import { groupOfPath, selectTitle } from '@/features/broadcast/utils/target';
import { Page } from '@/components/layouts/page';

/** /men/send, /women/send: choose the recipients of a bulk send. */
export default function SendRoute() {
  const group = groupOfPath(useLocation().pathname);
  return (
    <Page title={selectTitle(group)}>
      <RecipientPicker key={group} group={group} />
    </Page>
  );
}
