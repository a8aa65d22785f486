/** The browser client marks a flow the user ended (a declined consent, a cancelled PIN prompt) as a cancel. */
export const isCancel = (reason: unknown): boolean => typeof reason === 'object' && reason !== null && (reason as { isCancel?: unknown }).isCancel === true;
