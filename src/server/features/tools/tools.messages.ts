/** What tool runs say to the user and the client when a run cannot go on or has ended badly. */
export const toolErrors = {
  idempotencyMismatch: 'This Idempotency-Key was already used for a different request',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1-200 visible characters',
  notCancellable: 'This run has already finished',
  notRetryable: 'Only a failed or cancelled run can be retried',
  notFound: 'Run not found',
  stillRunning: 'Still working on it: the result will appear in your library when it is done',
  timedOut: 'The run took too long and was stopped. Your ENERGY has been refunded.',
  cancelled: 'The run was cancelled. Your ENERGY has been refunded.',
  workerLost: 'The run was interrupted. Your ENERGY has been refunded.',
  unknownTool: 'This tool is no longer available. Your ENERGY has been refunded.',
} as const;
