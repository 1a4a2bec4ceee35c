import { jaMember } from '@enishi/contract';
import { useEffect, useState } from 'react';
import { ApiError, errorMessage } from '@/lib/api-client';
import { PushSetupError, enablePush, pushState, verifyPush, type PushState } from '@/lib/push-subscription';
import type { Session } from '@/lib/session';
import { Button } from '@/components/ui/button';
import { IphoneGuide } from './iphone-guide';
import { PushSettingsCard } from './push-settings';
import './push.css';
import { Phrases } from '@/components/ui/phrases';

/**
 * Allowed is not enough: on only once the server holds this device's subscription (product.md §16.8). Asks the
 * server while notifications are allowed, and again on `checkAgain`; `registered` is null while still asking.
 */
function useRegistered(state: PushState, session: Session) {
  // Each check has a number; its answer counts only for that check (null: still asking).
  const [check, setCheck] = useState(0);
  const [answer, setAnswer] = useState<{ check: number; on: boolean } | null>(null);
  const registered = answer?.check === check ? answer.on : null;
  // Keyed on the user and login only: a new name or photo in the session is no reason to check again.
  const { uid, session: token } = session;
  useEffect(() => {
    if (state !== 'granted') return;
    let current = true;
    verifyPush({ uid, session: token })
      .then((on) => current && setAnswer({ check, on }))
      .catch((error: unknown) => {
        console.warn('push check failed', error);
        if (current) setAnswer({ check, on: false });
      });
    return () => {
      current = false;
    };
  }, [state, uid, token, check]);
  return { registered, checkAgain: () => setCheck((n) => n + 1) };
}

/**
 * Notifications on mypage (product.md §16), where the app lands after login: what they are for and a button that asks
 * on the tap; on an iPhone outside the home-screen app, how to add it first; when blocked, how to allow again.
 */
export function PushPanel({ session }: { session: Session }) {
  const [state, setState] = useState<PushState>(pushState);
  const [busy, setBusy] = useState(false);
  const { registered, checkAgain } = useRegistered(state, session);

  // What went wrong on the last tap, in words with what to do next; shown in the card until the next tap.
  const [failure, setFailure] = useState<string | null>(null);

  async function onEnable() {
    setBusy(true);
    setFailure(null);
    try {
      const answer = await enablePush(session);
      setState(answer);
      // Closed the browser's question without answering: nothing changed, so say what to do.
      if (answer === 'default') setFailure(jaMember.pushSetup.dismissed);
      checkAgain();
    } catch (error) {
      console.warn('push subscription failed', error);
      setFailure(failureText(error));
      setState(pushState());
    } finally {
      setBusy(false);
    }
  }

  if (state === 'install') return <IphoneGuide />;
  return (
    <>
      <section className="push-card paper-card" aria-labelledby="push-card-title">
        <h2 id="push-card-title" className="push-card__title">
          <BellIcon />
          {state === 'denied' ? jaMember.pushSetup.deniedTitle : jaMember.pushSetup.title}
        </h2>
        {state === 'default' || (state === 'granted' && registered === false) ? (
          <EnablePrompt
            lead={state === 'granted' ? jaMember.pushCheck.notRegistered : jaMember.pushSetup.lead}
            failure={failure}
            busy={busy}
            onEnable={() => void onEnable()}
          />
        ) : null}
        {state === 'granted' && registered === null ? (
          <p className="push-card__lead" role="status">
            <Phrases text={jaMember.pushCheck.checking} />
          </p>
        ) : null}
        {state === 'granted' && registered ? (
          <p className="push-card__lead push-card__lead--on">
            <span className="push-card__on">{jaMember.pushSetup.enabled}</span>
            <Phrases text={jaMember.pushSetup.enabledLead} />
          </p>
        ) : null}
        {state === 'denied' ? (
          <>
            <p className="push-card__lead">
              <Phrases text={jaMember.pushSetup.deniedLead} />
            </p>
            <ul className="push-card__steps">
              {jaMember.pushSetup.deniedSteps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ul>
          </>
        ) : null}
        {state === 'unsupported' ? (
          <p className="push-card__lead">
            <Phrases text={jaMember.pushSetup.unsupported} />
          </p>
        ) : null}
      </section>
      {state === 'granted' ? <PushSettingsCard session={session} /> : null}
    </>
  );
}

/** The ask to turn notifications on: why, what stays private, the last tap's failure and the button. */
function EnablePrompt({
  lead,
  failure,
  busy,
  onEnable,
}: {
  lead: string;
  failure: string | null;
  busy: boolean;
  onEnable: () => void;
}) {
  return (
    <>
      <p className="push-card__lead">
        <Phrases text={lead} />
      </p>
      <p className="push-card__note">
        <Phrases text={jaMember.pushSetup.privacy} />
      </p>
      {failure ? (
        <p className="push-card__error" role="alert">
          <Phrases text={failure} />
        </p>
      ) : null}
      <Button block busy={busy} disabled={busy} onClick={onEnable}>
        {busy ? jaMember.pushSetup.enabling : jaMember.pushSetup.enable}
      </Button>
    </>
  );
}

/** A failed subscription in words: the server's own reason, offline, the service worker, the push service. */
function failureText(error: unknown): string {
  if (error instanceof ApiError) return errorMessage(error);
  if (!navigator.onLine) return jaMember.pushSetup.offline;
  if (error instanceof PushSetupError)
    return error.reason === 'no-worker' ? jaMember.pushSetup.noWorker : jaMember.pushSetup.subscribeFailed;
  return jaMember.pushSetup.failed;
}

function BellIcon() {
  return (
    <svg className="push-card__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path
        d="M12 3a6 6 0 0 0-6 6v3.6L4.3 15.4A1 1 0 0 0 5.2 17h13.6a1 1 0 0 0 .9-1.6L18 12.6V9a6 6 0 0 0-6-6Zm-2.5 15.5a2.5 2.5 0 0 0 5 0"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.7"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
