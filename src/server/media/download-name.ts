/**
 * File names the browser will save. A name is the user's (or a remote
 * server's) text: it must not spoof its type (U+202E turns "gnp.exe" around),
 * carry a path, or promise a type the bytes are not.
 */

// Control characters (C0, DEL, C1), bidi embeddings/overrides/isolates and
// marks, zero-width characters and the BOM.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
// Characters no common file system accepts in a name.
const RESERVED = /[<>:"|?*]/g;
const MAX_STEM = 150;

/** The same extension family: .jpeg for image/jpeg is as good as .jpg. */
const SAME = new Map<string, string[]>([
  ['jpg', ['jpg', 'jpeg', 'jpe']],
  ['mp4', ['mp4', 'm4v']],
]);

/** The name as shown and stored: last path part, no invisible or control characters, trimmed. */
export function cleanName(name: string | undefined): string {
  const last = (name ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  return last.replace(INVISIBLE, '').trim().slice(0, 200);
}

/** The name to download as: clean, and ending in the extension of what the bytes are. */
export function safeDownloadName(name: string | undefined, ext: string): string {
  const clean = cleanName(name).replace(RESERVED, '_').replace(/^[.\s]+|[.\s]+$/g, '');
  const dot = clean.lastIndexOf('.');
  const stem = (dot > 0 ? clean.slice(0, dot) : clean).replace(/[.\s]+$/, '').slice(0, MAX_STEM) || 'download';
  const given = dot > 0 ? clean.slice(dot + 1).toLowerCase() : '';
  const fits = (SAME.get(ext) ?? [ext]).includes(given);
  return fits ? `${stem}.${clean.slice(dot + 1)}` : `${stem}.${ext}`;
}
