/**
 * The local editor's reading of a plain-language request: 'please make it a
 * bit brighter, add a vignette and crop to 16:9' -> brightness +10%,
 * vignette, crop 16:9. Pure (no Node or DOM APIs): the server runs it before
 * charging and on every run, and the API answers the same reading.
 *
 *   normalize (typos, emoji, number words)
 *   -> clauses (',', 'and', 'then'; 'black and white' stays whole)
 *   -> per clause: the plain-language rules (local-rules.ts), then what needs
 *      a generative model or another tool (beyond-local.ts), then the command
 *      language of edit-commands.ts on what is left
 *   -> ready, or refused before any charge with what to do instead.
 */
import { MAX_PROMPT_CHARS, parseEditCommands, type EditOp } from '../edit-commands.js';
import { INSTEAD, OTHER_TOOL_ADVICE, beyondLocal, type GenerativeKind, type OtherTool } from './beyond-local.js';
import { adjustLabel, findLocal } from './local-rules.js';
import { normalizeRequest } from './normalize.js';
import { languageLabel, needsMask, type EditStep, type LanguageOp } from './steps.js';
import { FILLER } from './vocabulary.js';

export const MAX_EDIT_STEPS = 30;

export type InterpretationStatus = 'ready' | 'needs_generative' | 'other_tool' | 'not_understood' | 'empty' | 'cloud';

export interface InterpretedStep {
  label: string;
  op: EditStep;
  /** Needs to know what is in the picture (runs the segmentation model). */
  needs_mask: boolean;
}

export interface EditInterpretation {
  status: InterpretationStatus;
  /** 'brightness +20%, vignette, crop 16:9' (empty when nothing was understood). */
  summary: string;
  steps: InterpretedStep[];
  /** Parts of the request nothing matched. */
  not_understood: string[];
  /** Parts that need a generative model. */
  needs_generative: string[];
  /** What the editor can do instead, e.g. "'blur the background'". */
  suggestions: string[];
  /** The refusal shown to the user (before any charge); null when the request can run. */
  message: string | null;
}

const DEFAULT_SUGGESTIONS = ["'make it brighter'", "'blur the background'", "'vintage look'", "'crop to 16:9'"];

/** What the editor does, with the words that lead to each: the 'closest things' an unknown request is offered. */
const CAPABILITIES: Array<[string, string]> = [
  ["'make it brighter'", 'bright brighter light lighter exposure dark darker dim sun shine glow lamp'],
  ["'more contrast'", 'contrast punch deep flat strong harsh'],
  ["'more vivid colors'", 'color colors vivid vibrant saturated rich bold intense dull bland'],
  ["'warmer'", 'warm warmer golden sunny hot orange yellow cozy summer'],
  ["'cooler'", 'cool cooler cold blue icy winter fresh'],
  ["'black and white'", 'black white gray grayscale mono monochrome colorless'],
  ["'vintage look'", 'vintage retro old aged antique nostalgic sepia classic'],
  ["'cinematic'", 'cinematic movie film hollywood epic scene'],
  ["'moody'", 'moody dark gloomy sad mood atmosphere'],
  ["'pencil sketch'", 'sketch drawing pencil draw art cartoon comic line'],
  ["'painting'", 'painting paint art artistic oil watercolor brush canvas'],
  ["'add a vignette'", 'vignette corners edges frame focus'],
  ["'HDR'", 'hdr detail details shadows highlights dynamic'],
  ["'blur the background'", 'blur background bokeh focus depth portrait behind'],
  ["'remove the background'", 'remove background transparent cut cutout png sticker isolate'],
  ["'black and white except the subject'", 'splash selective subject person except'],
  ["'make the sky more dramatic'", 'sky clouds dramatic stormy weather'],
  ["'brighten the face'", 'face skin person portrait selfie eyes'],
  ["'crop to 16:9'", 'crop ratio wide widescreen format size frame aspect'],
  ["'portrait for stories'", 'stories story instagram tiktok vertical phone'],
  ["'straighten'", 'straight straighten horizon tilt tilted crooked level'],
  ["'center the subject'", 'center middle subject composition frame'],
  ["'rotate 90'", 'rotate turn spin angle sideways'],
  ["'flip horizontal'", 'flip mirror reverse'],
  ["'add text \"Hello\"'", 'text words caption title write label name quote'],
  ["'sharpen'", 'sharp sharpen crisp clear detail focus'],
  ["'resize to 50%'", 'resize size smaller bigger scale small big shrink'],
  ["'add a 10px black border'", 'border frame edge outline margin'],
  ["'dreamy glow'", 'dreamy glow soft magic fairy romantic haze'],
  ["'film grain'", 'grain film analog noise texture'],
];

function words(s: string): string[] {
  return s.toLowerCase().match(/[a-z]+/g) ?? [];
}

/** The capabilities closest to what the user wrote (word overlap, then a prefix match). */
export function closestCapabilities(text: string, n = 3): string[] {
  const ws = words(text).filter((w) => !FILLER.has(w));
  const scored = CAPABILITIES.map(([example, keys], i) => {
    const ks = keys.split(' ');
    let score = 0;
    for (const w of ws) {
      if (ks.includes(w)) score += 2;
      else if (w.length >= 4 && ks.some((k) => k.length >= 4 && (k.startsWith(w.slice(0, 4)) || w.startsWith(k.slice(0, 4))))) score += 1;
    }
    return { example, score, i };
  });
  const hits = scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || a.i - b.i).map((s) => s.example);
  for (const d of DEFAULT_SUGGESTIONS) if (hits.length < n && !hits.includes(d)) hits.push(d);
  return hits.slice(0, n);
}

function editOpLabel(op: EditOp): string {
  switch (op.type) {
    case 'brightness':
    case 'contrast':
    case 'saturation':
    case 'temperature':
      return adjustLabel(op.type, op.percent);
    case 'crop':
      return op.aspect ? (op.aspect[0] === 1 && op.aspect[1] === 1 ? 'crop square' : `crop ${op.aspect[0]}:${op.aspect[1]}`) : op.percent !== undefined ? `crop center ${op.percent}%` : `crop ${op.width}x${op.height}`;
    case 'sharpen':
      return `sharpen ${op.sigma}`;
    case 'normalize':
      return 'auto levels';
    case 'grayscale':
      return 'black and white';
    case 'tint':
      return `tint ${op.color}`;
    default:
      return op.type;
  }
}

/** Protects phrases whose 'and' is not a separator. */
function protect(s: string): string {
  return s
    .replace(/\b(dark|moody) and (moody|dark)\b/g, '$1_and_$2')
    .replace(/\b(teal|orange) (and|&) (orange|teal)\b/g, '$1_and_$3')
    .replace(/\b(bright|crisp) and (clear|vivid|bright|airy)\b/g, '$1_and_$2')
    .replace(/\b(details?|shadows?) and (highlights?|shadows?)\b/g, '$1_and_$2')
    .replace(/\b(grayscale) (with|and) (high|more|strong|lots of) contrast\b/g, '$1_$2_$3 contrast')
    .replace(/\bsalt and pepper\b/g, 'salt_and_pepper')
    .replace(/\b(everything|all|the rest|anything) but\b/g, '$1_but_');
}

/** 'blur and darken the background': a verb with no object shares the next clause's object. */
function distribute(s: string): string {
  return s.replace(
    /\b(blur|darken|brighten|lighten|desaturate|soften|dim)(?: it)? (?:and|,|&) (blur|darken|brighten|lighten|desaturate|soften|dim) (the (?:background|sky|face|subject))\b/g,
    '$1 $3 and $2 $3',
  );
}

const SEPARATORS = /[,;\n!?]+|\.(?!\d)|\b(?:and then|and also|and|then|also|plus|after that|afterwards|finally|but|as well as|while you are at it|oh and)\b|&|\+(?!\s?\d)/;

const MODIFIER_ONLY =
  /^(?:please |but |and |only |just |not too much|very |really |)*(?:a (?:little|tiny|wee) bit|a (?:little|bit|touch|tad|lot|smidge|hint)|slightly|lots|much|subtly|not too much|heavily|strongly|a lot|way more|a bit more|a little more|more)?(?: more)?(?: please| thanks| though)*$/;

interface ClauseReading {
  text: string;
  steps: InterpretedStep[];
  generative?: GenerativeKind;
  otherTool?: OtherTool;
  unknown: boolean;
}

function readClause(clause: string, quotes: string[]): ClauseReading {
  const unquote = (t: string) => t.replace(/\u0001(\d{1,3})\u0002/g, (_a, i: string) => quotes[Number(i)] ?? '');
  const local = findLocal(clause);
  // What the plain-language rules left, as separate pieces (so nothing joins across a match).
  const pieces = local.map((h, i) => clause.slice(i === 0 ? 0 : local[i - 1]!.end, h.start));
  pieces.push(clause.slice(local.length ? local[local.length - 1]!.end : 0));
  const beyond = pieces.map(beyondLocal).find((b) => b !== null);
  if (beyond) return { text: unquote(clause), steps: [], generative: beyond.generative, otherTool: beyond.otherTool, unknown: false };

  const toStep = (op: EditStep, colorName?: string): InterpretedStep => ({
    label: isLanguageOp(op) ? languageLabel(op, colorName) : op.type === 'tint' && colorName ? `tint ${colorName}` : editOpLabel(op),
    op,
    needs_mask: needsMask(op),
  });
  const ordered: Array<{ pos: number; steps: InterpretedStep[] }> = local.map((h) => ({ pos: h.start, steps: h.steps.map((op) => toStep(op, h.colorName)) }));
  // The command language (rotate, flip, crop, resize, hue, text, border...) on what is left.
  let leftover = '';
  pieces.forEach((piece, i) => {
    const trimmed = piece.replace(/\s+/g, ' ').trim();
    if (!trimmed || !/[a-z0-9\u0001]/.test(trimmed)) return;
    const parsed = parseEditCommands(unquote(trimmed));
    if (parsed.ops.length) {
      ordered.push({ pos: i === 0 ? 0 : local[i - 1]!.end, steps: parsed.ops.map((op, j) => ({ label: parsed.understood[j]!, op, needs_mask: false })) });
    }
    if (parsed.unknown.length || !parsed.ops.length) leftover += ` ${trimmed}`;
  });
  ordered.sort((a, b) => a.pos - b.pos);
  const steps = ordered.flatMap((o) => o.steps);
  const meaningful = words(leftover.replace(/\u0001\d{1,3}\u0002/g, ' ')).filter((w) => !FILLER.has(w) && w.length > 1);
  return { text: unquote(clause), steps, unknown: steps.length === 0 && meaningful.length > 0 };
}

function isLanguageOp(op: EditStep): op is LanguageOp {
  return op.type === 'look' || op.type === 'region' || op.type === 'vignette' || op.type === 'grain' || op.type === 'straighten' || op.type === 'center-subject';
}

function quoteFor(text: string): string {
  const t = Array.from(text.replace(/\u0001\d{1,3}\u0002/g, '"…"').trim()).slice(0, 60).join('');
  return `"${t}"`;
}

/** Reads a request for the local editor. */
export function interpretEdit(prompt: string): EditInterpretation {
  const base: Omit<EditInterpretation, 'status' | 'message'> = { summary: '', steps: [], not_understood: [], needs_generative: [], suggestions: [] };
  if (typeof prompt !== 'string' || !prompt.trim()) {
    return { ...base, status: 'empty', suggestions: DEFAULT_SUGGESTIONS, message: `Describe the edit in your own words, for example ${DEFAULT_SUGGESTIONS.join(', ')}.` };
  }
  if (prompt.length > MAX_PROMPT_CHARS) {
    return { ...base, status: 'not_understood', message: `The edit prompt is too long (at most ${MAX_PROMPT_CHARS} characters).` };
  }
  // Quoted overlay text is set aside first: it may hold commas, 'and', anything.
  const quotes: string[] = [];
  const normalized = normalizeRequest(prompt).replace(/"[^"]*(?:"|$)|(?<=\b(?:text|caption|title|write|writing|saying|says|say|label|watermark|words?) ?[:=]? ?)'[^']*'/g, (q) => {
    quotes.push(q);
    return `\u0001${quotes.length - 1}\u0002`;
  });
  const prepared = distribute(protect(normalized));
  const clauses = prepared
    .split(SEPARATORS)
    .map((c) => c.replace(/_(and|&|with|but)_/g, ' $1 ').replace(/\s+/g, ' ').trim())
    .filter((c) => c.length > 0)
    // 'brighter, but just a touch': a clause that only says how much belongs to the one before.
    .reduce<string[]>((acc, c) => {
      if (acc.length && MODIFIER_ONLY.test(c)) acc[acc.length - 1] += ` ${c}`;
      else acc.push(c);
      return acc;
    }, []);

  const readings = clauses.map((c) => readClause(c, quotes));
  // 'warmer 🔥', 'brighter ☀️☀️': the same tone or look said twice is one step (geometry repeats on purpose).
  const seen = new Set<string>();
  const steps = readings.flatMap((r) => r.steps).filter((s) => {
    if (['rotate', 'flip', 'resize', 'text', 'border'].includes(s.op.type)) return true;
    const key = JSON.stringify(s.op);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const notUnderstood = readings.filter((r) => r.unknown).map((r) => r.text);
  const generative = readings.filter((r) => r.generative);
  const otherTool = readings.find((r) => r.otherTool)?.otherTool;
  const summary = steps.map((s) => s.label).join(', ');
  const understood = summary ? ` It understood: ${summary}.` : '';
  const result = { ...base, summary, steps, not_understood: notUnderstood, needs_generative: generative.map((g) => g.text) };

  if (generative.length) {
    const suggestions = [...new Set(generative.flatMap((g) => INSTEAD[g.generative!]))].slice(0, 4);
    return {
      ...result,
      status: 'needs_generative',
      suggestions,
      message:
        `${quoteFor(generative[0]!.text)} needs a generative AI model, which this server's editor does not run, so nothing was charged.${understood} ` +
        `Here it can instead: ${suggestions.join(', ')}. With the cloud AI editor configured, requests like this one are sent to it as written.`,
    };
  }
  if (otherTool) {
    const suggestions = closestCapabilities(readings.find((r) => r.otherTool)!.text);
    return { ...result, status: 'other_tool', suggestions, message: `${OTHER_TOOL_ADVICE[otherTool]} Nothing was charged.${understood}` };
  }
  if (notUnderstood.length) {
    const suggestions = closestCapabilities(notUnderstood.join(' '));
    return {
      ...result,
      status: 'not_understood',
      suggestions,
      message: `I couldn't understand ${quoteFor(notUnderstood[0]!)}, so nothing was charged.${understood} The closest things this editor can do: ${suggestions.join(', ')}.`,
    };
  }
  if (!steps.length) {
    return { ...result, status: 'empty', suggestions: DEFAULT_SUGGESTIONS, message: `Describe the edit in your own words, for example ${DEFAULT_SUGGESTIONS.join(', ')}.` };
  }
  if (steps.length > MAX_EDIT_STEPS) {
    return { ...result, status: 'not_understood', message: `Too many edits in one request (at most ${MAX_EDIT_STEPS}).` };
  }
  return { ...result, status: 'ready', message: null };
}

/** The reading when the cloud AI runs the editor: the request goes to it as written. */
export function cloudInterpretation(prompt: string): EditInterpretation {
  const empty = typeof prompt !== 'string' || !prompt.trim();
  return {
    status: empty ? 'empty' : 'cloud',
    summary: empty ? '' : 'sent to the cloud AI editor as written',
    steps: [],
    not_understood: [],
    needs_generative: [],
    suggestions: [],
    message: empty ? 'Please describe what changes you want to make' : null,
  };
}
