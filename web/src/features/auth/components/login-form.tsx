import { LIMITS, ja } from '@enishi/contract';
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-error';
import { useHydrated, useTypedBeforeHydration } from '@/lib/use-hydrated';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { useLogin } from '../hooks/use-login';
import './login-form.css';

/** ID and PASS; errors and "offline" as toasts (product.md §8); success goes to mypage (product.md §4). */
export function LoginForm() {
  const navigate = useNavigate();
  const login = useLogin();
  const hydrated = useHydrated();
  const [id, setId] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState({ id: false, password: false });
  const idInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(() => {
    if (idInput.current?.value) setId(idInput.current.value);
    if (passwordInput.current?.value) setPassword(passwordInput.current.value);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (login.pending) return;
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
    login.run({ id: loginId, password }).then(
      // Mypage then offers notifications (features/push): asked on a tap, never on its own.
      () => void navigate('/mypage', { replace: true }),
      (error: unknown) => toast(errorMessage(error)),
    );
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
      <Button type="submit" block busy={login.pending} ready={hydrated} className="login-form__submit">
        {ja.login.submit}
      </Button>
    </form>
  );
}
