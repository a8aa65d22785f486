import type { StationState } from '../core/schemas/station-state.js';
import { shellMessagesFor, type ShellMessages } from './shell-messages.js';

export interface ShellNotification {
  title: string;
  body: string;
  /** Clicking it brings the window forward: a prompt waits there. */
  opensWindow: boolean;
}

/**
 * What the desktop notifies between two pushed states: a prompt that arrived (a web page or the CLI waits for the
 * user) and a signature that was made. With no state before (the first one the shell hears of), every waiting
 * prompt is new, since someone may already be waiting, but no signature is: those were made before.
 */
export function notificationsBetween(previous: StationState | undefined, state: StationState, messages: ShellMessages = shellMessagesFor([])): ShellNotification[] {
  const notifications: ShellNotification[] = [];
  const known = new Set(previous?.prompts.map((prompt) => prompt.id));
  const arrived = state.prompts.find((prompt) => !known.has(prompt.id));
  if (arrived) {
    notifications.push({
      title: messages.waiting,
      body: arrived.kind === 'pin' ? messages.enterPin(arrived.request.requester) : messages.confirmInWindow(arrived.request.requester),
      opensWindow: true,
    });
  }
  const newestBefore = previous ? (previous.audit[0]?.id ?? 0) : Number.POSITIVE_INFINITY;
  const signed = state.audit.find((entry) => entry.outcome === 'signed' && entry.id > newestBefore);
  if (signed) notifications.push({ title: messages.signed, body: signed.documentName ?? signed.documentDigest.slice(0, 16), opensWindow: false });
  return notifications;
}

/** Whether the tray's list of recent documents may have changed: a new audit entry arrived. */
export function auditAdvanced(previous: StationState | undefined, state: StationState): boolean {
  return previous !== undefined && state.audit[0]?.id !== previous.audit[0]?.id;
}
