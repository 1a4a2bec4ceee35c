import { createRoot } from 'react-dom/client';
import ReauthDialog from './reauth-dialog';

let asking: Promise<boolean> | undefined;

/**
 * Shows the re-auth dialog (product.md §11.8) in a root of its own and resolves true once the person proved
 * themselves, false if they gave up. Changes refused at the same moment wait for the same dialog.
 */
export function askForProof(): Promise<boolean> {
  asking ??= new Promise<boolean>((resolve) => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    const settle = (proven: boolean) => {
      asking = undefined;
      queueMicrotask(() => {
        root.unmount();
        host.remove();
      });
      resolve(proven);
    };
    root.render(<ReauthDialog onSettle={settle} />);
  });
  return asking;
}
