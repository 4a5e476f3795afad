/** The user's own `\`, `%` and `_` escaped, so in a LIKE pattern they match only themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%text%` for ILIKE, with the user's own `\`, `%` and `_` escaped so they match only themselves. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** `text%` for LIKE: everything that starts with the text, taken literally. */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}
