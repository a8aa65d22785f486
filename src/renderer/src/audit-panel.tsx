import type { JSX } from 'react';
import type { AuditEntry } from '../../core/schemas/audit-entry.js';

export function AuditPanel({ entries }: { entries: AuditEntry[] }): JSX.Element {
  return (
    <section className="panel" aria-labelledby="audit-heading">
      <h2 id="audit-heading">Signature log</h2>
      {entries.length === 0 ? (
        <p className="muted">No signatures yet.</p>
      ) : (
        <table className="table" aria-label="Signature log">
          <thead>
            <tr>
              <th>Time</th>
              <th>Outcome</th>
              <th>Method</th>
              <th>Started by</th>
              <th>Client</th>
              <th>Signer</th>
              <th>Document</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>{entry.time.replace('T', ' ').slice(0, 19)}</td>
                <td>{entry.outcome}</td>
                <td>{entry.method}</td>
                <td>{entry.requester ?? entry.source}</td>
                <td>{entry.clientId ?? '—'}</td>
                <td>{entry.signer ?? '—'}</td>
                <td title={`SHA-256 ${entry.documentDigest}`}>{entry.documentName ?? entry.documentDigest.slice(0, 16)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
