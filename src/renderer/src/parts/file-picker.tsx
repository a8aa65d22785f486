import { useId, useState, type DragEvent, type JSX } from 'react';
import { useI18n } from '../i18n/i18n.js';

/**
 * A file field that also takes files dropped on it; keyboard users use the field itself. With `adds`, each pick is
 * handed over and the field emptied: the screen lists what was added, and the field must not name a file the list
 * no longer has (or refuse the same file picked again).
 */
export function FilePicker({ multiple, onFiles, label, adds = false }: { multiple: boolean; onFiles(files: File[]): void; label: string; adds?: boolean }): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent<HTMLDivElement>): void => {
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  };
  return (
    <div
      className={over ? 'drop-zone over' : 'drop-zone'}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-testid="drop-zone"
    >
      <label htmlFor={id} className="field">
        {label}
      </label>
      <input
        id={id}
        type="file"
        multiple={multiple}
        onChange={(event) => {
          onFiles([...(event.currentTarget.files ?? [])]);
          if (adds) event.currentTarget.value = '';
        }}
      />
      <span className="muted">{t('common.dropHere')}</span>
    </div>
  );
}
