import { can, ja, jaMember, type FactorsReply } from '@enishi/contract';
import { useEffect, useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import type { Session } from '@/lib/session';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { ErrorNote } from '@/components/ui/error-note';
import { Spinner } from '@/components/ui/spinner';
import { useConfirm } from '@/components/ui/confirm-dialog';
import {
  addPasskey,
  deviceName,
  newRecoveryCodes,
  removePasskey,
  removeTotp,
  setStaffRequirement,
  useFactors,
} from '../api/factors';
import { RecoveryCodes } from './recovery-codes';
import { TotpSetup } from './totp-setup';
import './security.css';
import { Phrases } from '@/components/ui/phrases';
import { japanFormat } from '@/lib/japan-date';

/** When a passkey was added or last used: the day in Japan. */
const day = (instant: string) => japanFormat({ dateStyle: 'medium' }).format(new Date(instant));

/** What each card may do: run a change (busy meanwhile, errors as toasts), asking first if need be. */
type Actions = {
  busy: boolean;
  act: (work: () => Promise<unknown>, done?: string) => Promise<void>;
  askThen: (message: string, work: () => Promise<unknown>, done?: string) => Promise<void>;
  showCodes: (codes: string[]) => void;
};

type Props = {
  session: Session;
  /** Called once a factor exists (the setup screen then lets the person go on). */
  onSecured?: () => void;
};

/**
 * ログインとセキュリティ (product.md §11.7): passkeys, the authenticator app, recovery codes (shown once when
 * made), and for the owner the switch that requires a second factor of all staff.
 */
export function SecurityPanel({ session, onSecured }: Props) {
  const { factors, failed, reload, retry } = useFactors();
  const confirm = useConfirm();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  const secured = !!factors && (factors.totp || factors.passkeys.length > 0);
  useEffect(() => {
    if (secured) onSecured?.();
  }, [secured, onSecured]);

  async function act(work: () => Promise<unknown>, done?: string) {
    setBusy(true);
    try {
      await work();
      // The cards show the change before the toast says it is done: never "no passkey" beside "added".
      try {
        await reload();
      } finally {
        if (done) toast(done);
      }
    } catch (error) {
      toast(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }
  /** Asks first (the harmless answer focused), then does it. */
  async function askThen(message: string, work: () => Promise<unknown>, done?: string) {
    if (await confirm({ message, initialFocus: 'cancel' })) await act(work, done);
  }
  const actions: Actions = { busy, act, askThen, showCodes: setCodes };

  if (!factors) {
    if (!failed) return <Spinner label={ja.app.loading} />;
    return (
      <div className="notice-box">
        <ErrorNote error={failed} />
        <Button variant="quiet" onClick={retry}>
          {ja.app.reload}
        </Button>
      </div>
    );
  }
  return (
    <div className="security">
      {codes && <RecoveryCodes codes={codes} />}
      <PasskeysCard factors={factors} actions={actions} />
      <TotpCard factors={factors} actions={actions} reload={reload} />
      {secured && <RecoveryCard factors={factors} actions={actions} />}
      {can(session, 'staff.manage') && <StaffCard factors={factors} actions={actions} />}
    </div>
  );
}

type CardProps = { factors: FactorsReply; actions: Actions };

function PasskeysCard({ factors, actions }: CardProps) {
  const supported = typeof window.PublicKeyCredential === 'function';
  return (
    <section className="security__card paper-card" aria-labelledby="security-passkeys">
      <h2 id="security-passkeys" className="security__title">
        {jaMember.security.passkeysTitle}
      </h2>
      <p className="security__lead">
        <Phrases text={jaMember.security.passkeysLead} />
      </p>
      {factors.passkeys.length === 0 ? (
        <p className="security__muted">
          <Phrases text={jaMember.security.passkeysNone} />
        </p>
      ) : (
        <ul className="security__list">
          {factors.passkeys.map((passkey) => (
            <li key={passkey.id} className="security__item">
              <div className="security__item-text">
                <p className="security__name">{passkey.name}</p>
                <p className="security__muted">
                  {jaMember.security.passkeyCreated} {day(passkey.created_at)}・
                  {jaMember.security.passkeyLastUsed}{' '}
                  {passkey.last_used_at ? day(passkey.last_used_at) : jaMember.security.passkeyNeverUsed}
                </p>
              </div>
              <Button
                variant="quiet"
                className="security__item-action"
                disabled={actions.busy}
                aria-label={`${passkey.name} ${jaMember.security.passkeyRemove}`}
                onClick={() =>
                  void actions.askThen(
                    jaMember.security.passkeyRemoveConfirm,
                    () => removePasskey(passkey.id),
                    jaMember.security.passkeyRemoved,
                  )
                }
              >
                {jaMember.security.passkeyRemove}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <Button
          busy={actions.busy}
          onClick={() =>
            void actions.act(async () => {
              const fresh = await addPasskey(deviceName());
              if (fresh) actions.showCodes(fresh);
            }, jaMember.security.passkeyAdded)
          }
        >
          {jaMember.security.passkeyAdd}
        </Button>
      ) : (
        <p className="security__muted">
          <Phrases text={jaMember.security.passkeyUnsupported} />
        </p>
      )}
    </section>
  );
}

function TotpCard({ factors, actions, reload }: CardProps & { reload: () => Promise<void> }) {
  return (
    <section className="security__card paper-card" aria-labelledby="security-totp">
      <h2 id="security-totp" className="security__title">
        {jaMember.security.totpTitle}
        <span className={factors.totp ? 'security__badge security__badge--on' : 'security__badge'}>
          {factors.totp ? jaMember.security.totpOn : jaMember.security.totpOff}
        </span>
      </h2>
      <p className="security__lead">
        <Phrases text={jaMember.security.totpLead} />
      </p>
      {factors.totp ? (
        <Button
          variant="quiet"
          disabled={actions.busy}
          onClick={() =>
            void actions.askThen(
              jaMember.security.totpRemoveConfirm,
              removeTotp,
              jaMember.security.totpRemoved,
            )
          }
        >
          {jaMember.security.totpRemove}
        </Button>
      ) : (
        <TotpSetup
          onDone={(fresh) => {
            actions.showCodes(fresh);
            void reload();
          }}
        />
      )}
    </section>
  );
}

function RecoveryCard({ factors, actions }: CardProps) {
  return (
    <section className="security__card paper-card" aria-labelledby="security-recovery">
      <h2 id="security-recovery" className="security__title">
        {jaMember.security.recoveryTitle}
        <span className="security__badge">{jaMember.security.recoveryLeft(factors.recovery_codes_left)}</span>
      </h2>
      <p className="security__lead">
        <Phrases text={jaMember.security.recoveryLead} />
      </p>
      <Button
        variant="secondary"
        disabled={actions.busy}
        onClick={() =>
          void actions.askThen(jaMember.security.recoveryNewConfirm, async () =>
            actions.showCodes((await newRecoveryCodes()).recovery_codes),
          )
        }
      >
        {jaMember.security.recoveryNew}
      </Button>
    </section>
  );
}

/** The owner's switch (policies on the server decide; the card is shown to the owner alone). */
function StaffCard({ factors, actions }: CardProps) {
  return (
    <section className="security__card paper-card" aria-labelledby="security-staff">
      <h2 id="security-staff" className="security__title">
        {jaMember.security.staffTitle}
      </h2>
      <p className="security__lead">
        <Phrases text={jaMember.security.staffLead} />
      </p>
      <label className="security__switch">
        <input
          type="checkbox"
          role="switch"
          checked={factors.staff_required}
          disabled={actions.busy}
          onChange={(event) => {
            const required = event.target.checked;
            void actions.act(
              () => setStaffRequirement(required),
              required ? jaMember.security.staffOn : jaMember.security.staffOff,
            );
          }}
        />
        <span>{jaMember.security.staffSwitch}</span>
      </label>
    </section>
  );
}
