import { type SecondFactor, jaSecondStep } from '@enishi/contract';
import { useRef, useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import type { LoginOutcome } from '../api/login';
import { useLoginSecond } from '../hooks/use-login';
import { Phrases } from '@/components/ui/phrases';

type Props = {
  ticket: string;
  id: string;
  factors: SecondFactor[];
  onDone: (outcome: LoginOutcome) => void;
  /** Back to ID and password (also when the ticket has expired or run out of tries). */
  onBack: () => void;
};

type Mode = 'code' | 'recovery';

/** Sends a step; a ticket that can no longer be used goes back to ID and password. */
function useSecondStep({ ticket, id, onDone, onBack }: Pick<Props, 'ticket' | 'id' | 'onDone' | 'onBack'>) {
  const second = useLoginSecond();

  function fail(error: unknown) {
    toast(errorMessage(error));
    // A ticket past its 5 minutes or its 5 tries: only the password step can start again.
    if (
      error instanceof ApiError &&
      (error.status === 429 || error.message === jaSecondStep.errors.ticketExpired)
    )
      onBack();
  }

  function send(step: { code: string } | { recovery_code: string } | { passkey: true }) {
    if (second.pending) return;
    second.run({ ticket, id, ...step }).then(onDone, fail);
  }

  return { pending: second.pending, send };
}

/** Below the form: switch between the app's code and a recovery code, or go back to the password. */
function SecondStepLinks({
  totp,
  mode,
  onSwitch,
  onBack,
}: {
  totp: boolean;
  mode: Mode;
  onSwitch: (next: Mode) => void;
  onBack: () => void;
}) {
  return (
    <div className="second-step__links">
      {totp && (
        <button
          type="button"
          className="page-link"
          onClick={() => onSwitch(mode === 'code' ? 'recovery' : 'code')}
        >
          {mode === 'code' ? jaSecondStep.useRecovery : jaSecondStep.useCode}
        </button>
      )}
      <button type="button" className="page-link" onClick={onBack}>
        {jaSecondStep.back}
      </button>
    </div>
  );
}

/** The second step of a login (product.md §11.7): the passkey, a code from the app, or a recovery code. */
export function SecondStepForm({ ticket, id, factors, onDone, onBack }: Props) {
  const { pending, send } = useSecondStep({ ticket, id, onDone, onBack });
  const [mode, setMode] = useState<Mode>(factors.includes('totp') ? 'code' : 'recovery');
  const [value, setValue] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = value.trim();
    if (!typed) {
      toast(mode === 'code' ? jaSecondStep.errors.codeFormat : jaSecondStep.errors.recoveryWrong);
      input.current?.focus();
      return;
    }
    send(mode === 'code' ? { code: typed } : { recovery_code: typed });
  }

  function switchTo(next: Mode) {
    setMode(next);
    setValue('');
    input.current?.focus();
  }

  return (
    <section className="second-step" aria-labelledby="second-step-title">
      <h2 id="second-step-title" ref={heading} tabIndex={-1} className="second-step__title">
        {jaSecondStep.title}
      </h2>
      <p className="second-step__lead">
        <Phrases text={jaSecondStep.lead} />
      </p>
      {factors.includes('webauthn') && (
        <Button block busy={pending} onClick={() => send({ passkey: true })}>
          {jaSecondStep.passkey}
        </Button>
      )}
      <form className="login-form" method="post" noValidate onSubmit={onSubmit}>
        <TextField
          ref={input}
          key={mode}
          label={mode === 'code' ? jaSecondStep.code : jaSecondStep.recovery}
          name={mode === 'code' ? 'code' : 'recovery_code'}
          autoComplete="one-time-code"
          inputMode={mode === 'code' ? 'numeric' : 'text'}
          autoCapitalize="none"
          spellCheck={false}
          maxLength={mode === 'code' ? 8 : 20}
          value={value}
          autoFocus={!factors.includes('webauthn')}
          aria-describedby="second-step-hint"
          onChange={(event) => setValue(event.target.value)}
        />
        <p id="second-step-hint" className="second-step__hint">
          <Phrases text={mode === 'code' ? jaSecondStep.codeHint : jaSecondStep.recoveryHint} />
        </p>
        <Button
          type="submit"
          variant={factors.includes('webauthn') ? 'secondary' : 'primary'}
          block
          busy={pending}
        >
          {mode === 'code' ? jaSecondStep.submitCode : jaSecondStep.submitRecovery}
        </Button>
      </form>
      <SecondStepLinks totp={factors.includes('totp')} mode={mode} onSwitch={switchTo} onBack={onBack} />
    </section>
  );
}
