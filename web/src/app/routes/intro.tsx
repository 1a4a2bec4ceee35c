import { jaIntro } from '@enishi/contract';
import { Link, useParams } from 'react-router';
import { EntryForm } from '@/features/entry/components/entry-form';
import { IntroGuide } from '@/features/entry/components/intro-guide';
import { PublicPhrases } from '@/components/ui/public-phrases';
import { Page } from '@/components/layouts/page';
import { PublicLayout } from '@/components/layouts/public-layout';
import './intro.css';

/** /intro/male and /intro/female: the public introduction and the application form. */
export default function IntroRoute() {
  const type = useParams().type === 'female' ? 'female' : 'male';
  return (
    <PublicLayout>
      <Page title={type === 'male' ? jaIntro.maleTitle : jaIntro.femaleTitle}>
        <IntroGuide type={type} />
        <section className="paper-card intro-form" aria-labelledby="intro-form-title">
          <h2 id="intro-form-title" className="intro-form__title">
            <PublicPhrases text={jaIntro.formTitle} />
          </h2>
          <p className="intro-form__lead">
            <PublicPhrases text={jaIntro.formLead} />
          </p>
          {/* A new key starts the form afresh when switching between the two intro pages. */}
          <EntryForm key={type} type={type} />
        </section>
        <Link to="/login" className="page-link">
          {jaIntro.toLogin}
        </Link>
      </Page>
    </PublicLayout>
  );
}
