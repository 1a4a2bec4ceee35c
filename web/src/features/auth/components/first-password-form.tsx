import { ja, jaFirstPassword } from '@enishi/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import type { LoginOutcome } from '../api/login';
import { useFirstPasswordLogin } from '../hooks/use-login';
import { PublicPhrases } from '@/components/ui/public-phrases';

/**
 * An imported member logged in with the first password the club handed over (product.md §11.4): they set
 * their own before anything else; the server exchanges the first for it and logs them in.
 */
export function FirstPasswordForm({
  id,
  password,
  onDone,
}: {
  id: string;
  password: string;
  onDone: (outcome: LoginOutcome) => void;
}) {
  const exchange = useFirstPasswordLogin();
  const [newPassword, setNewPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | undefined>();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (exchange.pending) return;
    if (newPassword !== again) {
      setError(jaFirstPassword.newPasswordMismatch);
      return;
    }
    setError(undefined);
    exchange.run({ id, password, newPassword }).then(onDone, (failure: unknown) => {
      setError(errorMessage(failure));
      toast(errorMessage(failure));
    });
  }

  return (
    <form className="login-form" noValidate onSubmit={onSubmit}>
      <p role="status">
        <PublicPhrases text={ja.errors.firstPasswordChange} />
      </p>
      <TextField
        ref={first}
        label={jaFirstPassword.newPassword}
        type="password"
        autoComplete="new-password"
        value={newPassword}
        error={error}
        onChange={(event) => setNewPassword(event.target.value)}
      />
      <p className="login-form__hint">{jaFirstPassword.newPasswordHint}</p>
      <TextField
        label={jaFirstPassword.newPasswordAgain}
        type="password"
        autoComplete="new-password"
        value={again}
        onChange={(event) => setAgain(event.target.value)}
      />
      <Button type="submit" block busy={exchange.pending} className="login-form__submit">
        {jaFirstPassword.setPassword}
      </Button>
    </form>
  );
}
