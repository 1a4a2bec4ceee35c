import { useLocation } from 'react-router';
import { BroadcastForm } from '@/features/broadcast/components/broadcast-form';
import { formTitle, groupOfPath } from '@/features/broadcast/utils/target';
import { Page } from '@/components/layouts/page';

/** /men/send/form, /women/send/form: write the bulk message and send it. */
export default function SendFormRoute() {
  const group = groupOfPath(useLocation().pathname);
  return (
    <Page title={formTitle(group)}>
      <BroadcastForm key={group} group={group} />
    </Page>
  );
}
