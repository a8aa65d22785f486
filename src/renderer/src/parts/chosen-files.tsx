import type { JSX } from 'react';
import { useI18n } from '../i18n/i18n.js';

/**
 * The files chosen so far, in the order they are signed, each with its size and buttons that move it up or down
 * or take it out: files are added one drop or pick at a time, so any of them can be changed without starting over.
 */
export function ChosenFiles({ files, onFiles }: { files: File[]; onFiles(files: File[]): void }): JSX.Element | null {
  const { t } = useI18n();
  if (files.length === 0) return null;
  const moved = (from: number, to: number): File[] => {
    const next = [...files];
    next.splice(to, 0, ...next.splice(from, 1));
    return next;
  };
  return (
    <ol className="list chosen-files" aria-label={t('common.files')}>
      {files.map((file, index) => (
        <li key={file.name}>
          <span className="file-name" translate="no">
            {file.name}
          </span> <span className="muted">({t('prompt.module.bytes', { n: file.size })})</span>
          <span className="file-actions">
            {files.length > 1 && (
              <>
                <button type="button" className="button secondary small" disabled={index === 0} aria-label={t('sign.files.up', { name: file.name })} title={t('sign.files.up', { name: file.name })} onClick={() => onFiles(moved(index, index - 1))}>
                  ↑
                </button>
                <button type="button" className="button secondary small" disabled={index === files.length - 1} aria-label={t('sign.files.down', { name: file.name })} title={t('sign.files.down', { name: file.name })} onClick={() => onFiles(moved(index, index + 1))}>
                  ↓
                </button>
              </>
            )}
            <button type="button" className="button danger-outline small" aria-label={t('sign.files.remove', { name: file.name })} title={t('sign.files.remove', { name: file.name })} onClick={() => onFiles(files.filter((_, other) => other !== index))}>
              ✕
            </button>
          </span>
        </li>
      ))}
    </ol>
  );
}
