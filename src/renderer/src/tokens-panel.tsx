import type { JSX } from 'react';
import type { Overview } from '../../core/schemas/admin-api.js';

type Props = Pick<Overview, 'tokens' | 'readers' | 'problems'>;

export function TokensPanel({ tokens, readers, problems }: Props): JSX.Element {
  return (
    <section className="panel" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Cards, tokens and certificate stores</h2>
      {readers.length > 0 && (
        <ul className="list" aria-label="Readers">
          {readers.map((reader) => (
            <li key={reader.name}>
              <strong>{reader.name}</strong> — {reader.cardPresent ? `card ${reader.atr ?? ''}` : 'no card'}
              {reader.driver && <span className="muted"> · {reader.driver}</span>}
              {reader.problem && <span className="warning"> · {reader.problem}</span>}
            </li>
          ))}
        </ul>
      )}
      {tokens.length === 0 ? (
        <p className="muted" data-testid="no-tokens">
          No card, token or certificate store found. Plug in a reader with an ID card or a USB token.
        </p>
      ) : (
        <ul className="list" aria-label="Tokens">
          {tokens.map((token) => (
            <li key={token.id}>
              <strong>{token.label}</strong> <span className="muted">({token.kind}, {token.driver})</span>
              {token.pin.locked ? <span className="warning"> · PIN blocked</span> : token.pin.finalTry ? <span className="warning"> · last PIN try</span> : null}
              <ul>
                {token.certificates.map((certificate) => (
                  <li key={certificate.id}>
                    {certificate.subject} <span className="muted">· {certificate.usage} · valid until {certificate.notAfter.slice(0, 10)}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      {problems.map((problem) => (
        <p className="warning" key={problem.source}>
          {problem.source}: {problem.message}
        </p>
      ))}
    </section>
  );
}
