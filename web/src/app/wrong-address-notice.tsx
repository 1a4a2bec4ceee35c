import { jaMember } from '@enishi/contract';
import { Phrases } from '@/components/ui/phrases';
import './wrong-address-notice.css';

/**
 * Opened at another address than the server's: chat cannot work here; name the right one (product.md §2.4).
 * Loaded only when it is shown (root-layout.tsx): a member's first load carries the store alone.
 */
export default function WrongAddressNotice({ address }: { address: string }) {
  return (
    <div className="wrong-address" role="alert">
      <p>
        <Phrases text={jaMember.wrongAddress.notice(address)} />
      </p>
      <a className="wrong-address__link" href={`${address}${location.pathname}${location.search}`}>
        {jaMember.wrongAddress.open}
      </a>
    </div>
  );
}
