import type { JSX } from 'react';
import { useI18n } from '../i18n/i18n.js';
import type { LinkProblem } from '../ui-credential.js';

/** What a missing, bad or used launch link gets: how to open the window again, with no restart. */
export function LinkProblemScreen({ kind }: { kind: LinkProblem['kind'] }): JSX.Element {
  const { t } = useI18n();
  return (
    <section className="panel" aria-labelledby="link-heading" data-testid="link-problem">
      <h2 id="link-heading">{t(kind === 'missing' ? 'link.missing.title' : 'link.used.title')}</h2>
      <p>{t(kind === 'missing' ? 'link.missing.body' : 'link.used.body')}</p>
      <p>{t('link.how', { command: 'signing-station ui' })}</p>
    </section>
  );
}
