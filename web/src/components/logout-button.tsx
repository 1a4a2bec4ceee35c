import { ja } from '@enishi/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { forgetUser, tellServerLogout } from '@/lib/auth';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { LogoutIcon } from '@/components/ui/icons';

/**
 * ログアウト: asks first, then ends the session on the server (failure ignored) and here, and goes to /login.
 * `block`: as wide as the screen (mypage); otherwise as wide as its words (home, where it is not the point).
 */
export function LogoutButton({ className, block = true }: { className?: string; block?: boolean }) {
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function onClick() {
    if (!(await confirm({ message: ja.logout.confirm }))) return;
    setBusy(true);
    await tellServerLogout();
    // Leave the member area first so no screen renders without a user, then forget the user.
    await navigate('/login', { replace: true });
    forgetUser();
  }

  return (
    <Button
      variant="quiet"
      block={block}
      className={className}
      icon={<LogoutIcon size={20} />}
      busy={busy}
      disabled={busy}
      onClick={() => void onClick()}
    >
      {ja.logout.label}
    </Button>
  );
}
