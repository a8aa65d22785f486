import type { JSX } from 'react';

/** A station or input error, announced to assistive technology; renders nothing when there is none. */
export function ErrorAlert({ message }: { message: string | undefined }): JSX.Element | null {
  if (!message) return null;
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}

export const messageOf = (reason: unknown): string => (reason instanceof Error ? reason.message : String(reason));
