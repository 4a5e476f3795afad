/** What restore tells the user it found and did, in plain words. */
import type { RestoreFindings } from '../../../../tools/fal-image-restore/schemas.js';
import type { Analysis } from './restore-analysis.js';
import type { BlurVerdict } from './restore-trial.js';

type Finding = RestoreFindings['found'][number];

export interface Outcome {
  analysis: Analysis;
  /** What actually ran (after the checks). */
  deblocked: boolean;
  denoiseSigma: number | null;
  /** Noise the analysis saw but the checks refused to remove, with the reason. */
  noiseRefused: string | null;
  blur: BlurVerdict | null;
  toned: boolean;
}

export const NOTHING_FOUND =
  'No compression damage, noise, blur, darkness or fading worth repairing was found, so your photo comes back unchanged.';
export const NOTHING_HELPED = 'The repairs that were tried did not make this photo better, so it comes back unchanged.';

export function describe(o: Outcome): RestoreFindings {
  const found: Finding[] = [];
  const c = o.analysis.compression;
  if (c && (c.step || c.quality < 70)) {
    const how = c.fromFile ? `saved as a JPEG at quality about ${c.quality}` : `an earlier JPEG save at quality about ${c.quality}`;
    found.push({
      kind: 'compression',
      fixed: o.deblocked,
      text: o.deblocked
        ? `Compression damage (${how}): the 8x8 blocks and the halos around edges were smoothed${c.fromFile ? ', within what the file itself allows' : ''}.`
        : `Compression (${how}): the blocks are too faint to repair, left as they are.`,
    });
  }
  if (o.denoiseSigma !== null || o.noiseRefused) {
    const sigma = o.denoiseSigma ?? o.analysis.noiseSigma;
    const level = sigma >= 12 ? 'Strong' : sigma >= 5 ? 'Visible' : 'Light';
    found.push({
      kind: 'noise',
      fixed: o.denoiseSigma !== null,
      text:
        o.denoiseSigma !== null
          ? `${level} noise or grain (about ${sigma.toFixed(0)} of 255): reduced, with edges, text and fine texture kept.`
          : `${level} noise or grain: left as it is, because ${o.noiseRefused}.`,
    });
  }
  const b = o.blur;
  if (b && (b.step || b.refused)) {
    const what = `${b.directional ? 'Blur from camera shake' : 'Slight blur'} (about ${b.width.toFixed(1)} px)`;
    found.push({
      kind: 'blur',
      fixed: !!b.step,
      text: b.step
        ? `${what}: sharpened${b.step.strength < 1 ? ' gently' : ''}, after the noise was removed, without halos.`
        : `${what}: not sharpened, because ${b.refused}.`,
    });
  }
  const t = o.analysis.tone;
  if (t) {
    found.push(
      t.kind === 'brighten'
        ? { kind: 'low_light', fixed: o.toned, text: `Too dark (average brightness ${t.luma.toFixed(0)} of 255): brightened, shadows lifted more than highlights.` }
        : { kind: 'faded', fixed: o.toned, text: 'Faded colours and contrast (no true black or white): contrast and colour restored.' },
    );
  }
  const fixed = found.filter((f) => f.fixed);
  if (!fixed.length) return { unchanged: true, summary: found.length ? NOTHING_HELPED : NOTHING_FOUND, found };
  const names: Record<Finding['kind'], string> = {
    compression: 'compression damage',
    noise: 'noise',
    blur: 'blur',
    low_light: 'darkness',
    faded: 'fading',
  };
  const list = (fs: Finding[]) => fs.map((f) => names[f.kind]).join(', ').replace(/, ([^,]*)$/, ' and $1');
  const left = found.filter((f) => !f.fixed);
  const summary = `Repaired ${list(fixed)}.${left.length ? ` Left as found: ${list(left)} (see why below).` : ''}`;
  return { unchanged: false, summary: summary.charAt(0).toUpperCase() + summary.slice(1), found };
}
