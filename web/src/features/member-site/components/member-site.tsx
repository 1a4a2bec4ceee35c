import { jaMember } from '@enishi/contract';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';
import { TextField } from '@/components/ui/text-field';
import './member-site.css';

const FRAME_NAME = 'member-site';
const t = jaMember.memberSite;

/**
 * The external member site in a frame, opened logged in as the specification's POST does (product.md §19.9):
 * the member types the site's ID and password into this form, which posts `mode`, `login_id`, `password`
 * and `submit` straight to the site with the frame as its target. The app never reads or keeps the password
 * (the browser's password manager may offer to remember it for the site).
 */
export function MemberSite({ url }: { url: string }) {
  const [sent, setSent] = useState(false);
  // The form stays in the page until the frame has loaded the site's answer: a form taken out of the page
  // while it is being sent would not be sent at all.
  const posting = useRef(false);
  return (
    <div className="member-site">
      {sent ? (
        <Button variant="quiet" className="member-site__again" onClick={() => setSent(false)}>
          {t.loginAgain}
        </Button>
      ) : (
        <form
          className="member-site__login paper-card"
          method="post"
          action={url}
          target={FRAME_NAME}
          aria-label={t.loginTitle}
          onSubmit={() => {
            posting.current = true;
          }}
        >
          <p className="member-site__lead">
            <Phrases text={t.lead} />
          </p>
          <input type="hidden" name="mode" value="login" />
          <TextField label={t.loginId} name="login_id" autoComplete="username" required maxLength={100} />
          <TextField
            label={t.password}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={100}
          />
          <input type="hidden" name="submit" value={t.submit} />
          <Button type="submit">{t.submit}</Button>
        </form>
      )}
      <iframe
        className="member-frame"
        name={FRAME_NAME}
        src={url}
        title={jaMember.women.frameTitle}
        referrerPolicy="no-referrer"
        onLoad={() => {
          if (!posting.current) return;
          posting.current = false;
          setSent(true);
        }}
      />
    </div>
  );
}
