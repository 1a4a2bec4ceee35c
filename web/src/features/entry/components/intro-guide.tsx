import { jaIntro } from '@enishi/contract';
import { PhoneIcon, ShieldIcon } from '@/components/ui/icons';
import { PublicPhrases } from '@/components/ui/public-phrases';
import './intro-guide.css';

/** The intro copy of product.md §1: welcome, what members get, the age rule for women, the rules and the install steps. */
export function IntroGuide({ type }: { type: 'male' | 'female' }) {
  return (
    <>
      <section className="paper-card intro-card intro-card--welcome">
        <p className="intro-welcome">
          <PublicPhrases text={jaIntro.welcome} />
        </p>
        <p>
          <PublicPhrases text={type === 'male' ? jaIntro.maleBody : jaIntro.femaleBody} />
        </p>
        {type === 'female' ? (
          <p className="intro-notice">
            <PublicPhrases text={jaIntro.femaleAge} />
          </p>
        ) : null}
      </section>

      <section className="paper-card intro-card" aria-labelledby="intro-rules">
        <h2 id="intro-rules" className="intro-heading">
          <ShieldIcon size={22} />
          <PublicPhrases text={jaIntro.rulesTitle} />
        </h2>
        <ul className="intro-rules" role="list">
          {jaIntro.rules.map((rule) => (
            <li key={rule}>
              <PublicPhrases text={rule} />
            </li>
          ))}
        </ul>
      </section>

      <section className="paper-card intro-card" aria-labelledby="intro-install">
        <h2 id="intro-install" className="intro-heading">
          <PhoneIcon size={22} />
          <PublicPhrases text={jaIntro.installTitle} />
        </h2>
        <p className="intro-muted">
          <PublicPhrases text={jaIntro.installLead} />
        </p>
        <div className="intro-install">
          <InstallSteps title={jaIntro.iphoneTitle} steps={jaIntro.iphoneSteps} />
          <InstallSteps title={jaIntro.androidTitle} steps={jaIntro.androidSteps} />
        </div>
      </section>
    </>
  );
}

function InstallSteps({ title, steps }: { title: string; steps: readonly string[] }) {
  return (
    <div className="intro-steps">
      <h3 className="intro-steps__title">{title}</h3>
      <ol className="intro-steps__list" role="list">
        {steps.map((step) => (
          <li key={step}>
            <PublicPhrases text={step} />
          </li>
        ))}
      </ol>
    </div>
  );
}
