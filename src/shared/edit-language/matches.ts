/**
 * Every non-empty match of a global pattern in `text`, in order. The pattern's position is reset
 * first (rules are shared, module-level patterns), and a pattern that can match nothing still ends.
 */
export function nonEmptyMatches(re: RegExp, text: string): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0].length === 0) re.lastIndex++;
    else found.push(m);
  }
  return found;
}
