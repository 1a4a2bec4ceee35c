import { ja } from '@enishi/contract';
import { Link } from 'react-router';
import { LoginForm } from '@/features/auth/components/login-form';
import { Page } from '@/components/layouts/page';
import { PublicLayout } from '@/components/layouts/public-layout';
import './login.css';
import { PublicPhrases } from '@/components/ui/public-phrases';

/** /login: ID, PASS, the login button and the note of product.md §2. */
export default function LoginRoute() {
  return (
    <PublicLayout>
      <div className="login">
        <span className="login__crest" aria-hidden="true">
          {ja.app.shortName}
        </span>
        <Page title={ja.login.title} lead={<PublicPhrases text={ja.login.lead} />}>
          <LoginForm />
          <p className="login__note">
            <PublicPhrases text={ja.login.note} />
          </p>
        </Page>
        <Link to="/enter" className="page-link login__enter">
          {ja.login.toEnter}
        </Link>
      </div>
    </PublicLayout>
  );
}
