import type { ChildProcess } from 'node:child_process';

/**
 * What a child process writes, kept as it comes, and a wait for the first whole line of its
 * stdout that starts with a prefix (answering the rest of that line, trimmed). The wait fails
 * when the process's output ends without such a line, or after `timeoutMs`; either way with the
 * end of everything it wrote (stdout and stderr), which is what tells why.
 */
export function outputOf(child: ChildProcess) {
  let stdout = '';
  let all = '';
  let ended = false;
  const waiting = new Set<() => void>();
  const changed = () => {
    for (const check of waiting) check();
  };
  child.stdout!.on('data', (d) => {
    stdout += d;
    all += d;
    changed();
  });
  child.stderr!.on('data', (d) => {
    all += d;
    changed();
  });
  child.once('close', () => {
    ended = true;
    changed();
  });

  const line = (prefix: string, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const settle = (done: () => void) => {
        clearTimeout(timer);
        waiting.delete(check);
        done();
      };
      const check = () => {
        const whole = ended ? stdout : stdout.slice(0, stdout.lastIndexOf('\n') + 1);
        const found = whole.split('\n').find((l) => l.startsWith(prefix));
        if (found !== undefined) settle(() => resolve(found.slice(prefix.length).trim()));
        else if (ended) settle(() => reject(new Error(`the process ended without a '${prefix}' line; output: ${all.slice(-3000)}`)));
      };
      const timer = setTimeout(() => settle(() => reject(new Error(`no '${prefix}' line in ${timeoutMs} ms; output: ${all.slice(-3000)}`))), timeoutMs);
      waiting.add(check);
      check();
    });

  return { line, output: () => all };
}
