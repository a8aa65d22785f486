import type { JSX } from 'react';
import type { MessageKey } from '../i18n/messages-en.js';
import { useI18n } from '../i18n/i18n.js';
import { problemKey } from '../problems/problem-key.js';

/**
 * What went wrong and what to do, in the user's language, announced to assistive technology; the error's code and
 * the station's own words one click away. It keeps the error itself, not words, so a language switch rewords it.
 * `within`: a message the plain words go into as `{message}` ("Not signed: {message}"). Renders nothing without an error.
 */
export function ErrorAlert({ error, within }: { error: unknown; within?: MessageKey }): JSX.Element | null {
  const { t } = useI18n();
  if (error === undefined || error === null) return null;
  const code = codeOf(error);
  const plain = t(problemKey(code));
  return (
    <div className="error" role="alert">
      <p>{within ? t(within, { message: plain }) : plain}</p>
      <details>
        <summary>{t('problem.details')}</summary>
        <p className="mono" translate="no">
          {technicalDetail(error, code)}
        </p>
      </details>
    </div>
  );
}

const codeOf = (error: unknown): string | undefined => {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
};

/** The code, the message as the station (or the browser) put it, and the fields it names. */
function technicalDetail(error: unknown, code: string | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  const fields = (error as { errors?: Record<string, string[]> }).errors ?? {};
  const named = Object.entries(fields).map(([field, problems]) => `${field}: ${problems.join('; ')}`);
  return [code ? `${code}: ${message}` : message, ...named].join('\n');
}
