import { LIMITS, ja } from '@enishi/contract';
import { Suspense, lazy, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-error';
import { useHydrated, useTypedBeforeHydration } from '@/lib/use-hydrated';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import type { LoginOutcome } from '../api/login';
import { useLogin, usePasskeyLogin } from '../hooks/use-login';
import './login-form.css';
import { PublicPhrases } from '@/components/ui/public-phrases';

type Second = Extract<LoginOutcome, { next: 'second' }>;
type FirstPassword = Extract<LoginOutcome, { next: 'first-password' }>;

// Only staff with a second factor see it, after the password: not part of /login's first load (product.md §2.7).
const loadSecondStep = () => import('./second-step-form');
const SecondStepForm = lazy(async () => ({ default: (await loadSecondStep()).SecondStepForm }));
// Only an imported member's first login needs it (product.md §11.4): loaded then, not with /login.
const FirstPasswordForm = lazy(async () => ({
  default: (await import('./first-password-form')).FirstPasswordForm,
}));

/**
 * What follows the password or a passkey: mypage, the setup screen for staff who must set up a second factor,
 * or the second step, shown once its form has loaded (the button stays busy meanwhile, no blank moment).
 */
function useAfterLogin() {
  const navigate = useNavigate();
  const [second, setSecond] = useState<Second | null>(null);
  const [firstPassword, setFirstPassword] = useState<FirstPassword | null>(null);
  const [opening, setOpening] = useState(false);

  function onOutcome(outcome: LoginOutcome) {
    if (outcome.next === 'first-password') {
      setFirstPassword(outcome);
      return;
    }
    if (outcome.next === 'second') {
      setOpening(true);
      loadSecondStep()
        .then(
          () => setSecond(outcome),
          (error: unknown) => toast(errorMessage(error)),
        )
        .finally(() => setOpening(false));
      return;
    }
    // Mypage then offers notifications (features/push): asked on a tap, never on its own.
    void navigate(outcome.setup ? '/security/setup' : '/mypage', { replace: true });
  }

  return { second, firstPassword, opening, onOutcome, back: () => setSecond(null) };
}

/** ID and PASS as typed (also before the app took the page over), which of them was left empty, their boxes. */
function useLoginFields() {
  const [id, setId] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState({ id: false, password: false });
  const idInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(() => {
    if (idInput.current?.value) setId(idInput.current.value);
    if (passwordInput.current?.value) setPassword(passwordInput.current.value);
  });
  return { id, setId, password, setPassword, missing, setMissing, idInput, passwordInput };
}

/** Below the form: a passkey logs in alone. */
function PasskeyLogin({
  hydrated,
  onOutcome,
}: {
  hydrated: boolean;
  onOutcome: (outcome: LoginOutcome) => void;
}) {
  const passkey = usePasskeyLogin();
  // Drawn in the prerendered page too, so nothing moves when the app takes over (product.md §2.7); it works
  // once the app runs, and goes away only in a browser without passkeys.
  const passkeys = !hydrated || typeof window.PublicKeyCredential === 'function';

  function onPasskey() {
    if (passkey.pending) return;
    if (!navigator.onLine) {
      toast(ja.errors.offline);
      return;
    }
    passkey.run(undefined).then(onOutcome, (error: unknown) => toast(errorMessage(error)));
  }

  if (!passkeys) return null;
  return (
    <div className="login-form__passkey">
      <p>
        <PublicPhrases text={ja.login.passkeyLead} />
      </p>
      <Button variant="secondary" block busy={passkey.pending} ready={hydrated} onClick={onPasskey}>
        {ja.login.passkey}
      </Button>
    </div>
  );
}

/** After the password: an imported member's own password (product.md §11.4), or the second step (§11.7). */
function NextStep({
  firstPassword,
  second,
  onOutcome,
  onBack,
}: {
  firstPassword: FirstPassword | null;
  second: Second | null;
  onOutcome: (outcome: LoginOutcome) => void;
  onBack: () => void;
}) {
  return (
    <Suspense>
      {firstPassword ? (
        <FirstPasswordForm {...firstPassword} onDone={onOutcome} />
      ) : second ? (
        <SecondStepForm {...second} onDone={onOutcome} onBack={onBack} />
      ) : null}
    </Suspense>
  );
}

/**
 * ID and PASS; errors and "offline" as toasts (product.md §8); success goes to mypage (product.md §4), or
 * first to the second step (product.md §11.7), or for staff who must set up a second factor to that screen.
 * Below the form, a passkey logs in alone.
 */
export function LoginForm() {
  const login = useLogin();
  const { second, firstPassword, opening, onOutcome, back } = useAfterLogin();
  const hydrated = useHydrated();
  const { id, setId, password, setPassword, missing, setMissing, idInput, passwordInput } = useLoginFields();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (login.pending || opening) return;
    const loginId = id.trim();
    const empty = { id: !loginId, password: !password };
    setMissing(empty);
    if (empty.id || empty.password) {
      toast(ja.errors.loginMissing);
      (empty.id ? idInput : passwordInput).current?.focus();
      return;
    }
    if (!navigator.onLine) {
      toast(ja.errors.offline);
      return;
    }
    login.run({ id: loginId, password }).then(onOutcome, (error: unknown) => toast(errorMessage(error)));
  }

  if (firstPassword || second) {
    const onBack = () => {
      back();
      setPassword('');
    };
    return <NextStep firstPassword={firstPassword} second={second} onOutcome={onOutcome} onBack={onBack} />;
  }

  // The prerendered button stays disabled until the app has taken the page over, so an early tap never sends
  // the form by itself; POST all the same, so such a form could never put its fields in a URL.
  return (
    <form className="login-form" method="post" noValidate onSubmit={onSubmit} onFocus={login.preload}>
      <TextField
        ref={idInput}
        label={ja.login.id}
        name="id"
        autoComplete="username"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        maxLength={LIMITS.loginIdMax}
        value={id}
        aria-invalid={missing.id || undefined}
        onChange={(event) => setId(event.target.value)}
      />
      <TextField
        ref={passwordInput}
        label={ja.login.password}
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        aria-invalid={missing.password || undefined}
        onChange={(event) => setPassword(event.target.value)}
      />
      <Button
        type="submit"
        block
        busy={login.pending || opening}
        ready={hydrated}
        className="login-form__submit"
      >
        {ja.login.submit}
      </Button>
      <PasskeyLogin hydrated={hydrated} onOutcome={onOutcome} />
    </form>
  );
}
