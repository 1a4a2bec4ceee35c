import { ja } from '@enishi/contract';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { applyUpdate, isUpdatePending } from '@/lib/pwa';
import { useConfirm } from '@/components/ui/confirm-dialog';

/** After each navigation, a waiting new version is offered (product.md §2); yes activates it and reloads at /. */
export function UpdatePrompt() {
  const location = useLocation();
  const confirm = useConfirm();
  const asking = useRef(false);

  useEffect(() => {
    if (!isUpdatePending() || asking.current) return;
    asking.current = true;
    void confirm({ message: ja.app.updatePrompt, initialFocus: 'confirm' }).then((yes) => {
      asking.current = false;
      if (yes) applyUpdate();
    });
  }, [location.key, confirm]);

  return null;
}
