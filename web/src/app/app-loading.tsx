import { ja } from '@enishi/contract';
import { Spinner } from '@/components/ui/spinner';
import './app-loading.css';

/** Shown while the first screen loads (and while a failed screen reloads). */
export function AppLoading({ message }: { message?: string }) {
  return (
    <div className="app-loading">
      <ClubMark />
      <Spinner label={message ?? ja.app.loading} />
      {message ? <p className="app-loading__message">{message}</p> : null}
    </div>
  );
}

/** The club's short name in a gold ring, at the top of the loading and error screens. */
export function ClubMark() {
  return (
    <span className="club-mark" aria-hidden="true">
      {ja.app.shortName}
    </span>
  );
}
