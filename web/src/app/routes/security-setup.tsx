import { ja, jaMember } from '@enishi/contract';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { SecurityPanel } from '@/features/security/components/security-panel';
import { forgetUser, tellServerLogout } from '@/lib/auth';
import { updateSession, useSession } from '@/lib/session';
import { Button } from '@/components/ui/button';
import { Page } from '@/components/layouts/page';
import { PublicLayout } from '@/components/layouts/public-layout';
import { Phrases } from '@/components/ui/phrases';

/**
 * /security/setup: staff whom the owner requires to have a second factor set one up right after login, before
 * the member area opens (its calls are refused until then, product.md §11.7).
 */
export default function SecuritySetupRoute() {
  const session = useSession();
  const navigate = useNavigate();
  const [secured, setSecured] = useState(false);
  const onSecured = useCallback(() => setSecured(true), []);
  if (!session) return null;

  async function leave() {
    await tellServerLogout();
    forgetUser();
    void navigate('/enter', { replace: true });
  }

  function carryOn() {
    updateSession({ secondFactorSetup: false });
    void navigate('/mypage', { replace: true });
  }

  return (
    <PublicLayout>
      <Page title={jaMember.security.setupTitle} lead={<Phrases text={jaMember.security.setupLead} />}>
        <SecurityPanel session={session} onSecured={onSecured} />
        {secured && (
          <div className="security-setup__done" role="status">
            <p>
              <Phrases text={jaMember.security.setupDone} />
            </p>
            <Button block onClick={carryOn}>
              {jaMember.security.continue}
            </Button>
          </div>
        )}
        <button type="button" className="page-link security-setup__leave" onClick={() => void leave()}>
          {ja.logout.label}
        </button>
      </Page>
    </PublicLayout>
  );
}
