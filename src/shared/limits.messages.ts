/** Rate limits and quotas: what was refused and what to do about it. */
export const limitMessages = {
  uploads: (n: number) => `Upload limit reached: at most ${n} uploads an hour. Please try again later.`,
  urlImports: (n: number) => `Import limit reached: at most ${n} URL imports an hour. Please try again later.`,
  fetchesAtOnce: (n: number) => `Too many imports at once: at most ${n} can run together. Please wait for one to finish.`,
  toolRuns: (n: number) => `Too many runs started: at most ${n} a minute. Please wait a moment and try again.`,
  openRuns: (n: number) => `You already have ${n} runs waiting or running. Please wait for one to finish before starting another.`,
  interpretations: (n: number) => `Too many requests read: at most ${n} a minute. Please wait a moment and try again.`,
  shareViews: 'Too many requests for shared pictures. Please try again in a minute.',
  conversions: (n: number) => `Too many converted downloads: at most ${n} a minute. Please wait a moment and try again.`,
  storageFull: (quota: string) => `Storage limit reached: your library can hold ${quota}. Delete some items to make room.`,
  storageFullForRuns: (quota: string) =>
    `Storage limit reached: your library can hold ${quota}, and a run's result is kept in it. Delete some items to make room, then run the tool again.`,
} as const;

/** A tool run's source refused before any charge (the same words for a single run and a batch retry). */
export const sourceMessages = {
  notFound: (kind: 'image' | 'video') => `This ${kind} is not in your library: pick another one`,
  wrongKind: (kind: 'image' | 'video') => (kind === 'image' ? 'This tool needs an image, not a video' : 'This tool needs a video, not an image'),
  notReady: 'This item is not ready yet',
  tooLarge: (limit: string) => `File is too large (max ${limit})`,
} as const;

/** Requests refused at the edge, whatever the route. */
export const inputMessages = {
  unstorable: 'The request contains characters that cannot be accepted',
  numberOutOfRange: 'The request contains a number that is out of range',
  tooDeep: 'The request is nested too deeply',
  malformedJson: 'The request body is not valid JSON',
  unsupportedMediaType: 'The request body has a content type this endpoint does not accept',
  bodyTooLarge: 'The request body is too large',
  malformedRequest: 'The request is malformed',
  malformedUrl: 'The address contains an escape that is not valid',
} as const;
