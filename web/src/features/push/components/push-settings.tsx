import { can, type PushKinds, jaMember } from '@enishi/contract';
import { errorMessage } from '@/lib/api-client';
import type { Session } from '@/lib/session';
import { toast } from '@/lib/toast';
import { usePushSettings } from '../api/get-push-settings';
import { useUpdatePushSettings } from '../api/update-push-settings';
import { Phrases } from '@/components/ui/phrases';

/** Members choose among their own talks and the club's sends; staff among the desk talks of men, of women, groups. */
const MEMBER_KINDS: (keyof PushKinds)[] = ['staff', 'st', 'news', 'broadcast'];
const STAFF_KINDS: (keyof PushKinds)[] = ['men', 'women', 'st'];

/** Which pushes this person receives, and whether they show the message itself (off by default). */
export function PushSettingsCard({ session }: { session: Session }) {
  const settings = usePushSettings();
  const update = useUpdatePushSettings();
  const save = (change: Parameters<typeof update.mutate>[0]) =>
    update.mutate(change, { onError: (error) => toast(errorMessage(error)) });
  const kinds = can(session, 'desk.use') ? STAFF_KINDS : MEMBER_KINDS;
  const data = settings.data;

  return (
    <section
      className="push-card paper-card"
      aria-labelledby="push-settings-title"
      aria-busy={!data || undefined}
    >
      <h2 id="push-settings-title" className="push-card__title">
        {jaMember.pushSetup.settingsTitle}
      </h2>
      <p className="push-card__note">
        <Phrases text={jaMember.pushSetup.settingsLead} />
      </p>
      <ul className="push-switches" role="list">
        {kinds.map((kind) => (
          <li key={kind}>
            <Switch
              label={jaMember.pushSetup.kinds[kind]}
              checked={data?.kinds[kind] ?? false}
              disabled={!data}
              onChange={(on) => save({ kinds: { [kind]: on } })}
            />
          </li>
        ))}
        <li>
          <Switch
            label={jaMember.pushSetup.showText}
            note={jaMember.pushSetup.showTextNote}
            checked={data?.show_text ?? false}
            disabled={!data}
            onChange={(on) => save({ show_text: on })}
          />
        </li>
      </ul>
      <p className="push-card__note">
        <Phrases text={jaMember.pushSetup.callsAlways} />
      </p>
    </section>
  );
}

type SwitchProps = {
  label: string;
  note?: string;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
};

function Switch({ label, note, checked, disabled, onChange }: SwitchProps) {
  return (
    <label className="push-switch">
      <span className="push-switch__text">
        <span className="push-switch__label">{label}</span>
        {note ? (
          <span className="push-switch__note">
            <Phrases text={note} />
          </span>
        ) : null}
      </span>
      <input
        type="checkbox"
        role="switch"
        className="push-switch__input"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
    </label>
  );
}
