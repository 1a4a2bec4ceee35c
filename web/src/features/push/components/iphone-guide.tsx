import { ja, jaMember } from '@enishi/contract';
import { Phrases } from '@/components/ui/phrases';

/*
 * iPhone and iPad receive pushes only in the app added to the home screen (iOS 16.4+): three pictures of what
 * the member taps, drawn like Safari's own controls so they are recognised at a glance.
 */

const [shareStep, addStep, openStep] = jaMember.pushSetup.installSteps;

export function IphoneGuide() {
  return (
    <section className="push-card paper-card push-guide" aria-labelledby="push-guide-title">
      <h2 id="push-guide-title" className="push-card__title">
        {jaMember.pushSetup.installTitle}
      </h2>
      <p className="push-card__lead">
        <Phrases text={jaMember.pushSetup.installLead} />
      </p>
      <ol className="push-guide__steps">
        <li className="push-guide__step">
          <ShareButtonPicture />
          <p>{shareStep}</p>
        </li>
        <li className="push-guide__step">
          <AddToHomePicture />
          <p>{addStep}</p>
        </li>
        <li className="push-guide__step">
          <AppIconPicture />
          <p>{openStep}</p>
        </li>
      </ol>
    </section>
  );
}

/** Safari's bottom bar with the share button (a square with an arrow) picked out. */
function ShareButtonPicture() {
  return (
    <svg className="push-guide__picture" viewBox="0 0 120 72" aria-hidden="true">
      <rect x="4" y="22" width="112" height="40" rx="10" fill="#f2f2f7" stroke="#d1d1d6" />
      <path
        d="M20 42l-5-5 5-5M34 32l5 5-5 5"
        fill="none"
        stroke="#8e8e93"
        strokeWidth="2.4"
        strokeLinecap="round"
      />
      <circle cx="60" cy="42" r="15" fill="#fff" stroke="#c8a663" strokeWidth="2.5" />
      <path
        d="M60 33v12M55.5 37.5 60 33l4.5 4.5M54 40h-1.5v9.5h15V40H66"
        fill="none"
        stroke="#0a84ff"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path d="M83 36h12v12H83zM100 37h8M100 42h8M100 47h8" fill="none" stroke="#8e8e93" strokeWidth="2" />
      <path d="M60 4v10M55 10l5 5 5-5" fill="none" stroke="#c8a663" strokeWidth="2.4" strokeLinecap="round" />
    </svg>
  );
}

/** The share sheet's row 「ホーム画面に追加」 with its plus-in-a-square icon. */
function AddToHomePicture() {
  return (
    <svg className="push-guide__picture" viewBox="0 0 120 72" aria-hidden="true">
      <rect x="4" y="6" width="112" height="60" rx="10" fill="#f2f2f7" stroke="#d1d1d6" />
      <rect x="10" y="12" width="100" height="20" rx="5" fill="#fff" />
      <rect x="10" y="38" width="100" height="22" rx="5" fill="#fff" stroke="#c8a663" strokeWidth="2.5" />
      <rect x="16" y="17" width="46" height="4" rx="2" fill="#c7c7cc" />
      <rect x="16" y="24" width="30" height="3" rx="1.5" fill="#e5e5ea" />
      <text x="15" y="52.5" fontSize="8" fill="#1c1c1e" fontFamily="sans-serif">
        {jaMember.pushSetup.addToHome}
      </text>
      <rect x="91" y="42" width="13" height="13" rx="3" fill="none" stroke="#1c1c1e" strokeWidth="1.6" />
      <path d="M97.5 45.5v6M94.5 48.5h6" stroke="#1c1c1e" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

/** The 縁 icon on the home screen among others. */
function AppIconPicture() {
  return (
    <svg className="push-guide__picture" viewBox="0 0 120 72" aria-hidden="true">
      <rect x="4" y="6" width="112" height="60" rx="10" fill="#dfe6f2" />
      <rect x="14" y="18" width="24" height="24" rx="6" fill="#fff" opacity="0.75" />
      <rect x="82" y="18" width="24" height="24" rx="6" fill="#fff" opacity="0.75" />
      <rect x="46" y="14" width="28" height="28" rx="7" fill="#14213d" stroke="#c8a663" strokeWidth="2.5" />
      <text
        x="60"
        y="34"
        fontSize="16"
        fill="#dcc28a"
        textAnchor="middle"
        fontFamily="serif"
        fontWeight="700"
      >
        {ja.app.shortName}
      </text>
      <text x="60" y="56" fontSize="8" fill="#1c2333" textAnchor="middle" fontFamily="sans-serif">
        {ja.app.shortName}
      </text>
    </svg>
  );
}
