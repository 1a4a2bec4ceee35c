import { jaMember, jaSecondStep, type FactorsReply, type ReauthBody } from '@enishi/contract';
import { startAuthentication } from '@simplewebauthn/browser';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api, errorMessage } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { Phrases } from '@/components/ui/phrases';
import '@/components/ui/confirm-dialog.css';
import './security.css';

type Step = 'password' | 'code' | 'recovery';
type Proof = Omit<ReauthBody, 'ssid' | 'password'>;

/** The person's second factors, asked of the server when the dialog opens (null until it answers). */
function useFactors(onError: (message: string) => void): FactorsReply | null {
  const [factors, setFactors] = useState<FactorsReply | null>(null);
  useEffect(() => {
    let live = true;
    api('2fa/factors', {}).then(
      (reply) => live && setFactors(reply),
      (failure: unknown) => live && onError(errorMessage(failure)),
    );
    return () => {
      live = false;
    };
  }, [onError]);
  return factors;
}

/** The dialog's state: which step, what was typed, and sending the proof (true to `onSettle` once given). */
function useProof(onSettle: (proven: boolean) => void) {
  const [step, setStep] = useState<Step>('password');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const factors = useFactors(setError);

  const hasFactor = !!factors && (factors.totp || factors.passkeys.length > 0);

  async function prove(proof: Proof) {
    setBusy(true);
    setError('');
    try {
      await api('reauth', { password, ...proof });
      onSettle(true);
    } catch (failure) {
      const message = errorMessage(failure);
      setError(message);
      // A wrong password is typed again; a wrong code again in its own field.
      if (message === jaMember.reauth.errors.passwordWrong) setStep('password');
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (step === 'password') {
      if (!password) return setError(jaMember.reauth.errors.passwordMissing);
      if (!hasFactor) return void prove({});
      setError('');
      return setStep(factors?.totp ? 'code' : 'recovery');
    }
    if (step === 'code') {
      if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) return setError(jaSecondStep.errors.codeFormat);
      return void prove({ code });
    }
    void prove({ recovery_code: code });
  }

  async function withPasskey() {
    setBusy(true);
    setError('');
    try {
      const optionsJSON = await api('reauth/options', {});
      const webauthn = await startAuthentication({ optionsJSON: optionsJSON as never });
      setBusy(false);
      await prove({ webauthn: webauthn as never });
    } catch (failure) {
      setError(failure instanceof Error && failure.name === 'NotAllowedError' ? '' : errorMessage(failure));
      setBusy(false);
    }
  }

  /** Between the code and a recovery code. */
  function otherCode() {
    setCode('');
    setError('');
    setStep(step === 'code' ? 'recovery' : 'code');
  }

  return {
    factors,
    hasFactor,
    step,
    password,
    setPassword,
    code,
    setCode,
    error,
    busy,
    submit,
    withPasskey,
    otherCode,
  };
}

/** The dialog shown modal while it is mounted; focus goes back where it was when it closes. */
function useShownModal() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    return () => {
      if (element?.open) element.close();
      if (previous?.isConnected) previous.focus();
    };
  }, []);
  return dialog;
}

/** The box of the step: the password, a code from the app, or a recovery code. */
function ProofField({
  step,
  password,
  setPassword,
  code,
  setCode,
}: {
  step: Step;
  password: string;
  setPassword: (password: string) => void;
  code: string;
  setCode: (code: string) => void;
}) {
  return step === 'password' ? (
    <TextField
      key="password"
      label={jaMember.reauth.password}
      type="password"
      autoComplete="current-password"
      autoFocus
      value={password}
      onChange={(event) => setPassword(event.target.value)}
    />
  ) : (
    <TextField
      key={step}
      label={step === 'code' ? jaMember.reauth.code : jaMember.reauth.recovery}
      autoComplete="one-time-code"
      inputMode={step === 'code' ? 'numeric' : 'text'}
      autoFocus
      value={code}
      onChange={(event) => setCode(event.target.value)}
    />
  );
}

/**
 * 本人確認 (product.md §11.8): the password, then the person's second factor when they have one (a code from
 * the authenticator app, a passkey, or a recovery code). Modal; Escape or キャンセル gives up, and the change
 * that asked for it fails with its message.
 */
export default function ReauthDialog({ onSettle }: { onSettle: (proven: boolean) => void }) {
  const dialog = useShownModal();
  const titleId = useId();
  const {
    factors,
    hasFactor,
    step,
    password,
    setPassword,
    code,
    setCode,
    error,
    busy,
    submit,
    withPasskey,
    otherCode,
  } = useProof(onSettle);

  return (
    <dialog
      ref={dialog}
      className="dialog reauth"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onSettle(false);
      }}
    >
      <span className="dialog__ornament" aria-hidden="true" />
      <h2 id={titleId} className="dialog__message">
        {jaMember.reauth.title}
      </h2>
      <form noValidate onSubmit={submit} className="reauth__form">
        <p className="reauth__lead">
          <Phrases text={step === 'password' ? jaMember.reauth.lead : jaMember.reauth.secondLead} />
        </p>
        <ProofField step={step} password={password} setPassword={setPassword} code={code} setCode={setCode} />
        {error && (
          <p className="reauth__error" role="alert">
            {error}
          </p>
        )}
        {step !== 'password' && factors && factors.passkeys.length > 0 && (
          <Button type="button" variant="secondary" block busy={busy} onClick={() => void withPasskey()}>
            {jaMember.reauth.passkey}
          </Button>
        )}
        {step !== 'password' && factors?.totp && (
          <button type="button" className="page-link" onClick={otherCode}>
            {step === 'code' ? jaSecondStep.useRecovery : jaSecondStep.useCode}
          </button>
        )}
        <div className="dialog__actions">
          <Button type="button" variant="quiet" onClick={() => onSettle(false)}>
            {jaMember.reauth.cancel}
          </Button>
          <Button type="submit" busy={busy} disabled={busy || (!factors && !error)}>
            {step === 'password' && hasFactor ? jaMember.reauth.next : jaMember.reauth.submit}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
