/**
 * What the local editor can do beyond the command language of edit-commands.ts:
 * looks, framing, and edits confined to a part of the picture (the subject,
 * the background, the sky, the face) that need a mask.
 */
import type { EditOp } from '../edit-commands.js';

export type LookName =
  | 'vintage'
  | 'old-photo'
  | 'moody'
  | 'cinematic'
  | 'film'
  | 'sketch'
  | 'painting'
  | 'hdr'
  | 'matte'
  | 'pop'
  | 'dramatic'
  | 'noir'
  | 'dreamy';

export type RegionName = 'background' | 'subject' | 'sky' | 'face';

export type RegionAction =
  | 'blur'
  | 'remove'
  | 'fill'
  | 'grayscale'
  | 'brighten'
  | 'darken'
  | 'dramatic'
  | 'saturate'
  | 'desaturate'
  | 'warm'
  | 'cool'
  | 'blue'
  | 'pop'
  | 'smooth';

export type LanguageOp =
  | { type: 'look'; look: LookName; strength: number }
  | { type: 'vignette'; strength: number }
  | { type: 'grain'; strength: number }
  /** No degrees: the tilt is measured from the picture. */
  | { type: 'straighten'; degrees?: number }
  | { type: 'center-subject' }
  | { type: 'region'; region: RegionName; action: RegionAction; strength: number; color?: string };

export type EditStep = EditOp | LanguageOp;

export const LOOK_LABELS: Record<LookName, string> = {
  vintage: 'vintage look',
  'old-photo': 'old photo look',
  moody: 'moody look',
  cinematic: 'cinematic look',
  film: 'film look',
  sketch: 'pencil sketch',
  painting: 'painting look',
  hdr: 'HDR look',
  matte: 'matte look',
  pop: 'make it pop',
  dramatic: 'dramatic look',
  noir: 'noir (high-contrast black and white)',
  dreamy: 'dreamy glow',
};

const REGION_LABELS: Record<RegionAction, (region: string, color?: string) => string> = {
  blur: (r) => `blur the ${r}`,
  remove: (r) => `remove the ${r} (transparent PNG)`,
  fill: (r, c) => `${c ?? 'white'} ${r}`,
  grayscale: (r) => (r === 'background' ? 'black and white except the subject' : `black and white ${r}`),
  brighten: (r) => `brighten the ${r}`,
  darken: (r) => `darken the ${r}`,
  dramatic: (r) => `more dramatic ${r}`,
  saturate: (r) => `more colourful ${r}`,
  desaturate: (r) => `muted ${r}`,
  warm: (r) => `warmer ${r}`,
  cool: (r) => `cooler ${r}`,
  blue: (r) => `bluer ${r}`,
  pop: (r) => `make the ${r} pop`,
  smooth: (r) => `smooth the ${r}`,
};

function strengthWord(s: number): string {
  return s < 0.8 ? ' (subtle)' : s > 1.3 ? ' (strong)' : '';
}

/** The words the user sees for a step, e.g. 'vignette (strong)', 'blur the background'. */
export function languageLabel(op: LanguageOp, colorName?: string): string {
  switch (op.type) {
    case 'look':
      return LOOK_LABELS[op.look] + strengthWord(op.strength);
    case 'vignette':
      return 'vignette' + strengthWord(op.strength);
    case 'grain':
      return 'film grain' + strengthWord(op.strength);
    case 'straighten':
      return op.degrees === undefined ? 'straighten (level the horizon)' : `straighten ${op.degrees}°`;
    case 'center-subject':
      return 'center the subject';
    case 'region':
      return REGION_LABELS[op.action](op.region, colorName) + (op.action === 'remove' || op.action === 'fill' ? '' : strengthWord(op.strength));
  }
}

/** Steps that need to know what is in the picture (a subject, sky or face mask). */
export function needsMask(step: EditStep): boolean {
  return step.type === 'region' || step.type === 'center-subject';
}
