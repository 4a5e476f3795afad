import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/**
 * axe-core on the screen as it is now: no serious or critical violation may remain. Besides the
 * WCAG A/AA and best-practice rules, the (experimental) label-content-name-mismatch rule runs too,
 * since speech-input users name controls by their visible words.
 *
 * Every check appends its counts to test-results/axe/<spec>.jsonl, so a run shows how many
 * screens were checked and what axe found at each impact level.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    // One axe.run in the page itself. The default mode opens a second, blank page for every check
    // to merge the results of cross-origin frames, which our screens do not have; that page and a
    // full list of passing nodes (resultTypes) cost 1-10 s per check here, on the same verdicts.
    .setLegacyMode(true)
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] })
    .analyze();
  const counts: Record<string, number> = { minor: 0, moderate: 0, serious: 0, critical: 0 };
  for (const v of results.violations) counts[v.impact ?? 'minor'] = (counts[v.impact ?? 'minor'] ?? 0) + v.nodes.length;
  const dir = path.join('test-results', 'axe');
  fs.mkdirSync(dir, { recursive: true });
  const spec = path.basename(test.info().file, '.spec.ts');
  fs.appendFileSync(path.join(dir, `${spec}.jsonl`), `${JSON.stringify({ screen, width: page.viewportSize()?.width, ...counts })}\n`);

  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}  ${n.failureSummary?.split('\n')[1] ?? ''}`).join('\n')}`);
  expect(blocking, `axe on ${screen}`).toEqual([]);
}
