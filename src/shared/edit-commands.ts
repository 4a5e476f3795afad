/**
 * The local editor's command language: a prompt such as
 * 'rotate 90, make it brighter and crop to square' becomes a list of
 * operations applied in order (see edit.ts for the sharp pipeline).
 *
 * Robustness: prompts are capped at 1000 characters, whitespace is collapsed
 * before matching, every regex is a flat alternation with bounded repeats
 * (no nested quantifiers, so matching is linear), and every number is
 * clamped to a safe range.
 */

import { nonEmptyMatches } from './edit-language/matches.js';

export type Position = 'top' | 'bottom' | 'center' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

export type EditOp =
  | { type: 'resize'; factor?: number; width?: number; height?: number; fit?: 'inside' }
  | { type: 'rotate'; degrees: number }
  | { type: 'flip'; axis: 'horizontal' | 'vertical' }
  | { type: 'crop'; aspect?: [number, number]; width?: number; height?: number; percent?: number }
  | { type: 'brightness'; percent: number }
  | { type: 'contrast'; percent: number }
  | { type: 'saturation'; percent: number }
  | { type: 'hue'; degrees: number }
  | { type: 'temperature'; percent: number }
  | { type: 'grayscale' }
  | { type: 'sepia' }
  | { type: 'tint'; color: string }
  | { type: 'blur'; sigma: number }
  | { type: 'sharpen'; sigma: number }
  | { type: 'gamma'; value: number }
  | { type: 'normalize' }
  | { type: 'clahe' }
  | { type: 'invert' }
  | { type: 'text'; text: string; position: Position; color: string; size: 'small' | 'medium' | 'large' | number }
  | { type: 'border'; px?: number; color: string };

export interface ParsedEdit {
  ops: EditOp[];
  /** Human text of each understood command, in order (e.g. 'rotate 90°'). */
  understood: string[];
  /** Clauses nothing matched (the prompt is refused when there are any). */
  unknown: string[];
}

export const MAX_PROMPT_CHARS = 1000;
export const MAX_TEXT_CHARS = 200;

export const EDIT_EXAMPLES = [
  "'rotate 90'",
  "'make it brighter'",
  "'black and white'",
  "'crop to square'",
  "'blur'",
  "'add text \"Hello\"'",
];

const COLORS: Record<string, string> = {
  red: '#e53935', green: '#43a047', blue: '#1e88e5', yellow: '#fdd835', orange: '#fb8c00', purple: '#8e24aa',
  violet: '#8e24aa', pink: '#ec407a', magenta: '#d81b60', cyan: '#00acc1', teal: '#00897b', turquoise: '#26c6da',
  brown: '#6d4c41', gold: '#d4af37', golden: '#d4af37', silver: '#c0c0c0', gray: '#808080', grey: '#808080',
  black: '#000000', white: '#ffffff', navy: '#1a237e', maroon: '#800000', olive: '#808000', lime: '#7cb342',
  beige: '#f5f5dc', cream: '#fffdd0', amber: '#ffb300', indigo: '#3949ab', coral: '#ff7f50', crimson: '#dc143c',
  lavender: '#b39ddb', mint: '#98ff98', peach: '#ffcba4', rose: '#f06292', 'sky blue': '#87ceeb', skyblue: '#87ceeb',
};
const COLOR_RE_SRC =
  '#[0-9a-f]{6}\\b|#[0-9a-f]{3}\\b|sky ?blue|red|green|blue|yellow|orange|purple|violet|pink|magenta|cyan|teal|turquoise|brown|golden|gold|silver|gr[ae]y|black|white|navy|maroon|olive|lime|beige|cream|amber|indigo|coral|crimson|lavender|mint|peach|rose';

/** A number: optional sign, bounded digits. */
const N = '([+-]?\\d{1,12}(?:\\.\\d{1,6})?|[+-]?\\.\\d{1,6})';

function colorHex(name: string): string {
  const n = name.trim().toLowerCase();
  if (n.startsWith('#')) {
    if (n.length === 4) return `#${n[1]}${n[1]}${n[2]}${n[2]}${n[3]}${n[3]}`;
    return n.slice(0, 7);
  }
  return COLORS[n.replace(/^gray$/, 'grey')] ?? COLORS[n] ?? '#ffffff';
}

function num(s: string | undefined): number {
  if (s === undefined) return NaN;
  const v = Number(s);
  return Number.isFinite(v) ? v : s.trim().startsWith('-') ? -1e12 : 1e12;
}

function clamp(v: number, lo: number, hi: number): number {
  if (Number.isNaN(v)) return lo;
  return Math.min(hi, Math.max(lo, v));
}

function round(v: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

function signed(v: number): string {
  return `${v >= 0 ? '+' : ''}${round(v, 1)}`;
}

/** Words before a match that scale an adjustment ('a bit brighter', 'much darker'). */
function intensity(before: string): number {
  const w = before.slice(-24);
  if (/\b(?:slightly|a bit|a little|a touch|a tad|somewhat|bit|little|subtly|gently|mildly)\b ?(?:more )?$/.test(w)) return 0.5;
  if (/\b(?:much|a lot|way|very|really|significantly|strongly|heavily|far|extremely|super) ?(?:more )?$/.test(w)) return 2;
  return 1;
}

interface Match {
  start: number;
  end: number;
  op: EditOp;
  label: string;
}

type Rule = { re: RegExp; make: (m: RegExpExecArray, clause: string) => { op: EditOp; label: string } | null };

const PH = '\u0001(\\d{1,3})\u0002'; // a quoted-text placeholder

function adjust(
  type: 'brightness' | 'contrast' | 'saturation' | 'temperature',
  dir: 1 | -1 | 0,
  m: RegExpExecArray,
  clause: string,
  numGroup: number,
  base: number,
  lo: number,
  hi: number,
): { op: EditOp; label: string } {
  const raw = m[numGroup];
  let p: number;
  if (raw !== undefined) {
    const v = num(raw);
    const hasSign = /^[+-]/.test(raw.trim());
    if (dir !== 0) p = dir * Math.abs(v);
    else if (hasSign) p = v;
    else if (v >= 100) p = v - 100; // 'brightness 120%' = 120 % of now
    else p = v;
  } else {
    p = (dir || 1) * base * intensity(clause.slice(0, m.index));
  }
  p = round(clamp(p, lo, hi), 1);
  const name = type === 'temperature' ? 'warmth' : type;
  return { op: { type, percent: p } as EditOp, label: `${name} ${signed(p)}%` };
}

const RULES: Rule[] = [
  // --- rotate ---
  {
    re: new RegExp(
      `\\b(?:rotate[sd]?|rotation|turn|spin)(?: (?:it|the|image|photo|picture|by|to|of|a|an))* ?(?:${N} ?(?:°|º|degrees?|degs?)?(?: ?(counter-?clockwise|anti-?clockwise|clockwise|ccw|cw|left|right))?|(counter-?clockwise|anti-?clockwise|clockwise|ccw|cw|left|right|upside[ -]down|around|half(?: a)? turn|a quarter(?: turn)?))?`,
      'g',
    ),
    make: (m) => {
      let deg: number;
      const dirWord = m[2] ?? m[3];
      if (m[1] !== undefined) deg = num(m[1]);
      else if (m[3] !== undefined) {
        if (/upside|around|half/.test(m[3])) deg = 180;
        else deg = 90;
      } else {
        if (/^turn|^spin/.test(m[0])) return null; // 'turn it black and white'
        deg = 90;
      }
      if (dirWord && /counter|anti|ccw|left/.test(dirWord)) deg = -Math.abs(deg);
      if (!Number.isFinite(deg) || Math.abs(deg) > 1e9) deg = 0;
      deg = ((deg % 360) + 360) % 360;
      deg = round(deg, 1);
      return { op: { type: 'rotate', degrees: deg }, label: `rotate ${deg}°` };
    },
  },
  {
    re: new RegExp(`\\b${N} ?(?:°|º|degrees?) (?:rotation|turn)\\b`, 'g'),
    make: (m) => {
      const deg = round(((num(m[1]) % 360) + 360) % 360, 1);
      return { op: { type: 'rotate', degrees: deg }, label: `rotate ${deg}°` };
    },
  },
  { re: /\bupside[ -]down\b/g, make: () => ({ op: { type: 'rotate', degrees: 180 }, label: 'rotate 180°' }) },
  // --- flip / mirror ---
  {
    re: /\b(?:flip(?:ped|s)?|mirror(?:ed|s)?|reflect)(?: (?:it|the|image|photo|picture))* ?(horizontally|horizontal|left[ -]to[ -]right|sideways|vertically|vertical|upside[ -]down|top[ -]to[ -]bottom)?/g,
    make: (m) => {
      const v = m[1] !== undefined && /vert|upside|top/.test(m[1]);
      return { op: { type: 'flip', axis: v ? 'vertical' : 'horizontal' }, label: v ? 'flip vertical' : 'flip horizontal' };
    },
  },
  {
    re: /\b(horizontal|vertical) (?:flip|mirror)\b/g,
    make: (m) => {
      const v = m[1] === 'vertical';
      return { op: { type: 'flip', axis: v ? 'vertical' : 'horizontal' }, label: v ? 'flip vertical' : 'flip horizontal' };
    },
  },
  // --- crop ---
  {
    re: new RegExp(
      `\\bcrop(?:ped|s)?(?: (?:it|the|image|photo|picture|to|into|as|a|an|in|at|around|on))* ?(?:(square)|${N} ?([:x×/]) ?${N}|(portrait|landscape|widescreen|wide)|(?:(?:center|centre|middle) ?)?${N} ?%|(center|centre|middle))?`,
      'g',
    ),
    make: (m) => {
      if (m[1]) return { op: { type: 'crop', aspect: [1, 1] }, label: 'crop square' };
      if (m[2] !== undefined && m[4] !== undefined) {
        const a = clamp(num(m[2]), 1, 100000);
        const b = clamp(num(m[4]), 1, 100000);
        if (m[3] !== ':' && m[3] !== '/' && a > 32 && b > 32) {
          const w = Math.round(clamp(a, 1, 8192));
          const h = Math.round(clamp(b, 1, 8192));
          return { op: { type: 'crop', width: w, height: h }, label: `crop ${w}x${h}` };
        }
        const ra = round(clamp(a, 1, 100), 2);
        const rb = round(clamp(b, 1, 100), 2);
        return { op: { type: 'crop', aspect: [ra, rb] }, label: `crop ${ra}:${rb}` };
      }
      if (m[5]) {
        const asp: [number, number] = m[5] === 'portrait' ? [3, 4] : m[5] === 'landscape' ? [4, 3] : [16, 9];
        return { op: { type: 'crop', aspect: asp }, label: `crop ${asp[0]}:${asp[1]}` };
      }
      if (m[6] !== undefined) {
        const p = round(clamp(num(m[6]), 1, 100), 1);
        return { op: { type: 'crop', percent: p }, label: `crop center ${p}%` };
      }
      if (m[7]) return { op: { type: 'crop', percent: 80 }, label: 'crop center 80%' };
      return null;
    },
  },
  {
    re: /\b(?:square crop|make (?:it|the (?:image|photo|picture)) (?:a )?square)\b/g,
    make: () => ({ op: { type: 'crop', aspect: [1, 1] }, label: 'crop square' }),
  },
  // --- resize ---
  {
    re: new RegExp(
      `\\b(resize[ds]?|re-?scale[ds]?|scale[ds]?|enlarge[ds]?|shrink|downscale|upscale|downsize|zoom out)(?: (?:it|the|image|photo|picture|to|by|down|up|at|a|factor|of|size))* ?(?:${N} ?[x×*] ?${N}|${N} ?%|[x×] ?${N}|${N} ?(?:x|×|times)\\b|(half|double|twice|quarter|third)|${N} ?(?:px|pixels?)? ?(wide|width|tall|high|height)?|(width|height) ?(?:of|to|=|:)? ?${N})?`,
      'g',
    ),
    make: (m) => {
      const kw = m[1];
      let f: number | undefined;
      if (m[2] !== undefined && m[3] !== undefined) {
        const w = Math.round(clamp(num(m[2]), 1, 8192));
        const h = Math.round(clamp(num(m[3]), 1, 8192));
        return { op: { type: 'resize', width: w, height: h, fit: 'inside' }, label: `resize to fit ${w}x${h}` };
      }
      if (m[4] !== undefined) f = num(m[4]) / 100;
      else if (m[5] !== undefined) f = num(m[5]);
      else if (m[6] !== undefined) f = num(m[6]);
      else if (m[7] !== undefined) f = { half: 0.5, double: 2, twice: 2, quarter: 0.25, third: 1 / 3 }[m[7]];
      else if (m[8] !== undefined) {
        const v = num(m[8]);
        const dim = m[9];
        if (dim && /wide|width/.test(dim)) {
          const w = Math.round(clamp(v, 1, 8192));
          return { op: { type: 'resize', width: w }, label: `resize to ${w}px wide` };
        }
        if (dim) {
          const h = Math.round(clamp(v, 1, 8192));
          return { op: { type: 'resize', height: h }, label: `resize to ${h}px tall` };
        }
        if (v > 10) {
          const s = Math.round(clamp(v, 1, 8192));
          return { op: { type: 'resize', width: s, height: s, fit: 'inside' }, label: `resize to fit ${s}x${s}` };
        }
        f = v;
      } else if (m[10] !== undefined && m[11] !== undefined) {
        const v = Math.round(clamp(num(m[11]), 1, 8192));
        return m[10] === 'width'
          ? { op: { type: 'resize', width: v }, label: `resize to ${v}px wide` }
          : { op: { type: 'resize', height: v }, label: `resize to ${v}px tall` };
      } else if (/shrink|downscale|downsize|zoom out/.test(kw)) f = 0.5;
      else if (/enlarge|upscale/.test(kw)) f = 2;
      else return null;
      if (f === undefined || !(f > 0)) f = 0.01;
      if (/shrink|downscale|downsize/.test(kw) && f > 1) f = 1 / f; // 'shrink by 2x'
      f = round(clamp(f, 0.01, 8), 3);
      return { op: { type: 'resize', factor: f }, label: `resize ${round(f * 100, 1)}%` };
    },
  },
  {
    re: /\bmake (?:it|the (?:image|photo|picture)) (bigger|larger|smaller|twice as (?:big|large)|half (?:the )?size)\b/g,
    make: (m) => {
      const f = /small|half/.test(m[1]) ? 0.5 : /twice/.test(m[1]) ? 2 : 1.5;
      return { op: { type: 'resize', factor: f }, label: `resize ${f * 100}%` };
    },
  },
  // --- brightness ---
  {
    re: new RegExp(`\\b(?:brighter|brighten|lighter|lighten|more light|brightness up|increase (?:the )?brightness|more exposure|brighter exposure)(?: by)? ?(?:${N} ?%?)?`, 'g'),
    make: (m, c) => adjust('brightness', 1, m, c, 1, 20, -95, 300),
  },
  {
    re: new RegExp(`\\b(?:darker|darken|dim(?:mer)?|less light|brightness down|decrease (?:the )?brightness|reduce (?:the )?brightness|lower (?:the )?brightness|underexpose)(?: by)? ?(?:${N} ?%?)?`, 'g'),
    make: (m, c) => adjust('brightness', -1, m, c, 1, 20, -95, 300),
  },
  { re: new RegExp(`\\b(?:brightness|exposure)(?: (?:by|to|of|=|:))? ?${N} ?%?`, 'g'), make: (m, c) => adjust('brightness', 0, m, c, 1, 20, -95, 300) },
  // --- contrast ---
  {
    re: new RegExp(`\\b(?:more|increase[ds]?|boost|higher|raise|add|stronger|high|punch(?:y|ier)?)(?: the)? contrast(?: by)? ?(?:${N} ?%?)?|\\bcontrast (?:up|higher)(?: by)? ?(?:${N} ?%?)?`, 'g'),
    make: (m, c) => adjust('contrast', 1, m, c, m[1] !== undefined ? 1 : 2, 20, -90, 300),
  },
  {
    re: new RegExp(`\\b(?:less|decrease[ds]?|reduce[ds]?|lower|weaker|low)(?: the)? contrast(?: by)? ?(?:${N} ?%?)?|\\bcontrast (?:down|lower)(?: by)? ?(?:${N} ?%?)?`, 'g'),
    make: (m, c) => adjust('contrast', -1, m, c, m[1] !== undefined ? 1 : 2, 20, -90, 300),
  },
  { re: new RegExp(`\\bcontrast(?: (?:by|to|of|=|:))? ?${N} ?%?`, 'g'), make: (m, c) => adjust('contrast', 0, m, c, 1, 20, -90, 300) },
  // --- saturation ---
  {
    re: new RegExp(
      `\\b(?:less|lower|reduce[ds]?|decrease[ds]?|fewer)(?: the)? (?:vivid|vibrant|saturated|saturation|colou?rful|colou?rs?|vibrance)(?: by)? ?(?:${N} ?%?)?|\\b(?:desaturate[ds]?|muted?|washed[ -]out|faded?)\\b`,
      'g',
    ),
    make: (m, c) => adjust('saturation', -1, m, c, 1, 40, -100, 300),
  },
  {
    re: new RegExp(
      `\\b(?:more|increase[ds]?|boost|higher|raise|add)(?: the)? (?:vivid|vibrant|saturated|saturation|colou?rful|colou?rs?|vibrance)(?: by)? ?(?:${N} ?%?)?|\\b(?:vivid|vibrant|saturate|colou?rful|pop)\\b`,
      'g',
    ),
    make: (m, c) => adjust('saturation', 1, m, c, 1, 30, -100, 300),
  },
  { re: new RegExp(`\\b(?:saturation|vibrance)(?: (?:by|to|of|=|:))? ?${N} ?%?`, 'g'), make: (m, c) => adjust('saturation', 0, m, c, 1, 30, -100, 300) },
  // --- hue ---
  {
    re: new RegExp(`\\b(?:hue(?: shift| rotat(?:e|ion))?|shift(?: the)? hue|rotate(?: the)? hue)(?: (?:by|to|of|=|:))? ?${N} ?(?:°|º|degrees?|deg)?`, 'g'),
    make: (m) => {
      let d = num(m[1]);
      if (!Number.isFinite(d) || Math.abs(d) > 1e9) d = 0;
      d = Math.round(((d % 360) + 360) % 360);
      return { op: { type: 'hue', degrees: d }, label: `hue ${d}°` };
    },
  },
  // --- warmth ---
  {
    re: /\b(?:warmer|warm(?: it)? up|warm (?:tones?|look|colou?rs?|filter)|more warmth)\b/g,
    make: (m, c) => adjust('temperature', 1, m, c, 99, 15, -60, 60),
  },
  {
    re: /\b(?:cooler|colder|cool(?: it)? down|cool (?:tones?|look|colou?rs?|filter)|less warmth)\b/g,
    make: (m, c) => adjust('temperature', -1, m, c, 99, 15, -60, 60),
  },
  // --- grayscale / sepia / invert ---
  {
    re: /\b(?:gr[ae]y ?scaled?|grayscale|monochrome|mono|b ?& ?w|b\/w|no colou?rs?|remove (?:the )?colou?rs?|(?:make|turn|convert) (?:it |the (?:image|photo|picture) )?(?:to |in(?:to)? )?gr[ae]y)\b/g,
    make: () => ({ op: { type: 'grayscale' }, label: 'black and white' }),
  },
  { re: /\b(?:sepia|vintage|old[ -]?photo|antique|old[ -]fashioned|retro)\b/g, make: () => ({ op: { type: 'sepia' }, label: 'sepia' }) },
  {
    re: /\b(?:invert(?:ed|s)?(?: (?:the )?colou?rs?)?|negative|negate|inverse)\b/g,
    make: () => ({ op: { type: 'invert' }, label: 'invert' }),
  },
  // --- tint ---
  {
    re: new RegExp(
      `\\b(?:tint(?:ed)?|tinge|colou?r ?wash|wash)(?: (?:it|the|image|photo|picture|with|in|to|a|an))* ?(${COLOR_RE_SRC})\\b|\\b(${COLOR_RE_SRC})(?:ish)? (?:tint|tinge|cast|filter|wash)\\b`,
      'g',
    ),
    make: (m) => {
      const name = m[1] ?? m[2];
      const hex = colorHex(name);
      return { op: { type: 'tint', color: hex }, label: `tint ${name.startsWith('#') ? hex : name}` };
    },
  },
  // --- blur / sharpen ---
  {
    re: new RegExp(`\\b(?:gaussian blur|blur(?:red|ry|s)?|soften|defocus|smooth(?:en)?)(?: (?:it|the|image|photo|picture|by|with|radius|sigma|of|amount|a))* ?(?:${N} ?(?:px|pixels?)?)?`, 'g'),
    make: (m, c) => {
      let s: number;
      if (m[1] !== undefined) s = num(m[1]);
      else {
        const k = intensity(c.slice(0, m.index));
        s = /soften|smooth/.test(m[0]) ? 1.5 : 3 * k;
        if (/\b(?:heav(?:y|ily)|strong(?:ly)?|lots?|very)\b/.test(c)) s = 8;
      }
      s = round(clamp(s, 0.3, 100), 1);
      return { op: { type: 'blur', sigma: s }, label: `blur ${s}` };
    },
  },
  {
    re: new RegExp(`\\b(?:sharpen(?:ed)?|sharper|sharpness|crisper|crisp|enhance (?:the )?details?|more detail(?:ed)?)(?: (?:it|the|image|photo|picture|by|amount|of))* ?(?:${N})?`, 'g'),
    make: (m, c) => {
      let s = m[1] !== undefined ? num(m[1]) : 1.5 * intensity(c.slice(0, m.index));
      s = round(clamp(s, 0.3, 10), 1);
      return { op: { type: 'sharpen', sigma: s }, label: `sharpen ${s}` };
    },
  },
  // --- gamma ---
  {
    re: new RegExp(`\\bgamma(?: correction)?(?: (?:of|to|=|:|by))? ?${N}`, 'g'),
    make: (m) => {
      const g = round(clamp(num(m[1]), 0.1, 10), 2);
      return { op: { type: 'gamma', value: g }, label: `gamma ${g}` };
    },
  },
  // --- levels ---
  {
    re: /\b(?:clahe|equali[sz]e[ds]?|equali[sz]ation|local contrast|histogram equali[sz]ation|adaptive (?:contrast|equali[sz]ation))\b/g,
    make: () => ({ op: { type: 'clahe' }, label: 'local contrast (CLAHE)' }),
  },
  {
    re: /\b(?:auto[ -]?(?:levels?|contrast|enhance|adjust|colou?rs?|correct(?:ion)?|fix|tones?)|normali[sz]e[ds]?|stretch(?: the)? (?:histogram|levels)|enhance|improve|fix (?:the )?(?:lighting|exposure|colou?rs?|levels))\b/g,
    make: () => ({ op: { type: 'normalize' }, label: 'auto levels' }),
  },
  // --- border ---
  {
    re: new RegExp(
      `\\b(?:add (?:a |an )?)?(?:${N} ?(?:px|pixels?)? )?(?:(${COLOR_RE_SRC})(?: colou?red)? )?(?:${N} ?(?:px|pixels?)? )?(?:border|frame|outline|margin|padding)(?: (?:of|with|width|size|in|around(?: it| the image)?))* ?(?:${N} ?(?:px|pixels?)?)?(?: ?(?:in )?(${COLOR_RE_SRC})\\b)?`,
      'g',
    ),
    make: (m) => {
      const rawPx = m[1] ?? m[3] ?? m[4];
      const colorName = m[2] ?? m[5] ?? 'white';
      const hex = colorHex(colorName);
      const px = rawPx !== undefined ? Math.round(clamp(num(rawPx), 1, 2000)) : undefined;
      const cname = colorName.startsWith('#') ? hex : colorName;
      return { op: { type: 'border', px, color: hex }, label: px !== undefined ? `border ${px}px ${cname}` : `border ${cname}` };
    },
  },
];

/** Removes characters XML 1.0 does not allow, and caps the length. */
export function cleanText(s: string): string {
  let t = s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g, '').replace(/[\r\n\t]+/g, ' ');
  // lone surrogates
  t = t.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '');
  return Array.from(t).slice(0, MAX_TEXT_CHARS).join('').trim();
}

function textOp(clause: string, texts: string[]): Match | null {
  const m = new RegExp(PH).exec(clause);
  if (!m) return null;
  const text = cleanText(texts[Number(m[1])] ?? '');
  if (!text) return null;
  const rest = clause.replace(new RegExp(PH, 'g'), ' ');
  let position: Position = 'bottom';
  const pos = /\b(top|upper|bottom|lower|center|centre|middle)(?:[ -](left|right))?\b|\b(left|right)\b/.exec(rest);
  if (pos) {
    const v = pos[1] ? (/top|upper/.test(pos[1]) ? 'top' : /bottom|lower/.test(pos[1]) ? 'bottom' : 'center') : 'bottom';
    const h = pos[2] ?? pos[3];
    position = (h && v !== 'center' ? `${v}-${h}` : h ? `bottom-${h}` : v) as Position;
  }
  const colorM = new RegExp(`\\b(${COLOR_RE_SRC})\\b`).exec(rest);
  const color = colorM ? colorHex(colorM[1]) : '#ffffff';
  let size: 'small' | 'medium' | 'large' | number = 'medium';
  const sz = new RegExp(`\\b(small|tiny|big|large|huge|giant)\\b|\\b(?:size|font)(?: size)? ?${N}|${N} ?(?:px|pt)\\b`).exec(rest);
  if (sz) {
    if (sz[1]) size = /small|tiny/.test(sz[1]) ? 'small' : 'large';
    else size = Math.round(clamp(num(sz[2] ?? sz[3]), 6, 400));
  }
  const shown = text.length > 40 ? `${Array.from(text).slice(0, 40).join('')}…` : text;
  return {
    start: m.index,
    end: clause.length,
    op: { type: 'text', text, position, color, size },
    label: `text "${shown}" (${position})`,
  };
}

const FILLER = /^(?:please|pls|thanks|thank you|ok|okay|and|then|also|now|just|it|image|photo|picture|the image|the photo|the picture|make it|can you|could you|i want|i'd like|do it|a bit|slightly)?$/;

function parseClause(clause: string, texts: string[]): { matches: Match[]; unknown: boolean } {
  const t = textOp(clause, texts);
  if (t) {
    // Commands written before the quoted text in the same clause still count ('rotate 90 and add text').
    const head = parseClause(clause.slice(0, t.start).replace(/\b(?:add|put|write|place|insert|overlay|with|text|caption|title|label|watermark|saying|says|say)\b/g, ' ').trim(), texts);
    return { matches: [...head.matches, t], unknown: false };
  }
  if (/\bbackground\b/.test(clause)) return { matches: [], unknown: true };
  const cands: Match[] = [];
  for (const rule of RULES) {
    for (const m of nonEmptyMatches(rule.re, clause)) {
      const made = rule.make(m, clause);
      if (made) cands.push({ start: m.index, end: m.index + m[0].trimEnd().length, ...made });
    }
  }
  cands.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const chosen: Match[] = [];
  let end = -1;
  for (const c of cands) {
    if (c.start >= end) {
      chosen.push(c);
      end = c.end;
    }
  }
  const leftover = clause.replace(/[^a-z0-9#%]+/g, ' ').trim();
  return { matches: chosen, unknown: chosen.length === 0 && !FILLER.test(leftover) };
}

/** Parses an edit prompt into operations (in the order written). */
export function parseEditCommands(prompt: string): ParsedEdit {
  const ops: EditOp[] = [];
  const understood: string[] = [];
  const unknown: string[] = [];
  const src = String(prompt ?? '').slice(0, MAX_PROMPT_CHARS);
  // Quoted text first (it may contain commas, 'and', anything): straight, curly and guillemet quotes.
  const texts: string[] = [];
  let s = src.replace(/[\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033]/g, '"').replace(/[\u2018\u2019\u201a\u201b]/g, "'");
  s = s.replace(/[\u0001\u0002]/g, ' ');
  s = s.replace(/"([^"]*)(?:"|$)/g, (_all, t: string) => {
    if (texts.length >= 100) return ' ';
    texts.push(t);
    return ` \u0001${texts.length - 1}\u0002 `;
  });
  s = s.replace(/\b(text|caption|title|write|writing|saying|says|say|label|watermark|words?)( ?[:=]? ?)'([^']*)'/gi, (_all, kw: string, sep: string, t: string) => {
    if (texts.length >= 100) return `${kw} `;
    texts.push(t);
    return `${kw}${sep} \u0001${texts.length - 1}\u0002 `;
  });
  s = s.toLowerCase().replace(/[^\S\n]+/g, ' ');
  // Phrases containing a clause separator.
  s = s
    .replace(/\bblack ?(?:and|&|n|'n'|-and-|\/) ?white\b/g, 'grayscale')
    .replace(/\bb ?& ?w\b/g, 'grayscale')
    .replace(/\bb\/w\b/g, 'grayscale')
    .replace(/\b(left|top) ?(?:to|and) ?(right|bottom)\b/g, '$1-to-$2');
  const clauses = s.split(/[,;\n!?]+|\.(?!\d)|\b(?:and then|and also|then|and|also|plus|after that|afterwards|finally)\b|&|\+(?!\s?\d)/);
  for (const raw of clauses) {
    const clause = raw.trim();
    if (!clause) continue;
    const { matches, unknown: unk } = parseClause(clause, texts);
    if (unk) {
      unknown.push(clause.replace(/\u0001\d{1,3}\u0002/g, '"…"'));
      continue;
    }
    for (const m of matches) {
      ops.push(m.op);
      understood.push(m.label);
    }
  }
  return { ops, understood, unknown };
}

/** Null when the prompt is understood; otherwise a message for the user (shown before any charge). */
export function validateEditPrompt(prompt: string): string | null {
  const examples = `Try commands like ${EDIT_EXAMPLES.join(', ')}`;
  if (typeof prompt !== 'string' || !prompt.trim()) return `Describe the edit. ${examples}.`;
  if (prompt.length > MAX_PROMPT_CHARS) return `The edit prompt is too long (at most ${MAX_PROMPT_CHARS} characters).`;
  const parsed = parseEditCommands(prompt);
  if (parsed.unknown.length) {
    const bad = Array.from(parsed.unknown[0]).slice(0, 60).join('');
    return `I couldn't understand that edit ("${bad}"). The local editor changes the whole image with commands. ${examples}, 'resize to 50%', 'flip horizontal', 'add a 10px black border'.`;
  }
  if (!parsed.ops.length) return `I couldn't understand that edit. ${examples}.`;
  if (parsed.ops.length > 30) return 'Too many edit commands in one prompt (at most 30).';
  return null;
}
