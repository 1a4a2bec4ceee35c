import { jaMember, jaSecondStep } from '@enishi/contract';
import { toDataURL } from 'qrcode';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { confirmTotp, startTotp } from '../api/factors';
import { Phrases } from '@/components/ui/phrases';

type Pending = { secret: string; uri: string; qr: string };

/** Setting up an authenticator app: the QR code (drawn here, no network) and the key, then a first code. */
export function TotpSetup({ onDone }: { onDone: (codes: string[]) => void }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  async function begin() {
    setBusy(true);
    try {
      const { secret, uri } = await startTotp();
      setPending({ secret, uri, qr: await toDataURL(uri, { margin: 1, width: 200 }) });
    } catch (error) {
      toast(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) {
      toast(jaSecondStep.errors.codeFormat);
      return;
    }
    setBusy(true);
    try {
      const { recovery_codes } = await confirmTotp(code);
      toast(jaMember.security.totpDone);
      setPending(null);
      setCode('');
      onDone(recovery_codes);
    } catch (error) {
      toast(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  if (!pending)
    return (
      <Button variant="secondary" busy={busy} onClick={() => void begin()}>
        {jaMember.security.totpStart}
      </Button>
    );
  return (
    <form className="security__totp" noValidate onSubmit={(event) => void confirm(event)}>
      <p>
        <Phrases text={jaMember.security.totpScan} />
      </p>
      <img
        className="security__qr"
        src={pending.qr}
        width={200}
        height={200}
        alt={jaMember.security.totpQr}
      />
      <p className="security__secret">
        {jaMember.security.totpSecret}: <code data-testid="totp-secret">{pending.secret}</code>
      </p>
      <TextField
        label={jaMember.security.totpCode}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      <div className="security__actions">
        <Button type="submit" busy={busy}>
          {jaMember.security.totpConfirm}
        </Button>
        <Button variant="quiet" onClick={() => setPending(null)}>
          {jaMember.security.cancel}
        </Button>
      </div>
    </form>
  );
}
