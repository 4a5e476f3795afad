/**
 * The plain-language rules of the local editor: each finds a phrase in a
 * clause ('make the sky more dramatic', 'a bit brighter', 'portrait for
 * stories') and says which steps it means. Every pattern is a flat
 * alternation with bounded repeats (linear matching on 1000 characters).
 */
import type { EditOp } from '../edit-commands.js';
import type { EditStep, LookName, RegionAction, RegionName } from './steps.js';
import { nonEmptyMatches } from './matches.js';
import { BG, COLOR_HEX, COLOR_WORDS, FACE, SKY, SUBJ, TINT_WORDS, intensityAround } from './vocabulary.js';

export interface RuleHit {
  start: number;
  end: number;
  steps: EditStep[];
  /** Names a colour for the label ('white background'). */
  colorName?: string;
}

interface Rule {
  re: RegExp;
  make(m: RegExpExecArray, clause: string, k: number): Omit<RuleHit, 'start' | 'end'> | EditStep | EditStep[] | null;
}

const NUM = '([+-]?\\d{1,4}(?:\\.\\d{1,3})?)';

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
const round1 = (v: number) => Math.round(v * 10) / 10;

// ---------------------------------------------------------------- adjustments

type AdjustKind = 'brightness' | 'contrast' | 'saturation' | 'temperature';

interface AdjustSpec {
  kind: AdjustKind;
  /** Phrases meaning 'more'. */
  up: string;
  /** Phrases meaning 'less'. */
  down: string;
  /** The quantity's own names ('brightness', 'exposure'). */
  noun: string;
  baseUp: number;
  baseDown: number;
  lo: number;
  hi: number;
}

const MORE = '(?:more|increase(?:d)?|boost(?:ed)?|raise|higher|up|bump(?: up)?|crank(?: up)?|turn up|pump up|add(?: some| a bit of| a little| more)?|push|amp up|improve)';
const LESS = '(?:less|decrease(?:d)?|reduce(?:d)?|lower(?:ed)?|cut|tone down|turn down|drop|pull down|bring down|dial (?:down|back)|minimi[sz]e|soften)';

const ADJUST: AdjustSpec[] = [
  {
    kind: 'brightness',
    up: "(?:is|looks?|seems?|are) (?:a (?:little|bit|tad) |kind of |kinda |somewhat |quite |pretty |rather )?(?:dark|dim|gloomy|underexposed)|(?:bright|light) and airy|airy|too dim|so dim|brighter|brighten(?:ed)?(?: up)?|lighter|lighten(?: up)?|light(?:en)? (?:it |this |the photo )?up|more light|too dark|so dark|underexposed|under exposed|not (?:so|as) dark|less dark|(?:make it|more|a bit|bit|little|slightly|much|very|really) bright(?! and)|exposure (?:up|higher)|overall brighter|bright(?: it)? up|brighter exposure",
    down: '(?:is|looks?|seems?|are) (?:a (?:little|bit|tad) |kind of |kinda |somewhat |quite |pretty |rather )?(?:overexposed|washed out by the sun)|darker|darken(?:ed)?|dim(?:mer)?|less light|too bright|so bright|overexposed|over exposed|blown out|not (?:so|as) bright|less bright|exposure (?:down|lower)|underexpose|(?:make it|more|a bit|bit|little|slightly|much|very|really|super|extra|quite|pretty|so) dark(?! and)',
    noun: 'brightness|exposure|lightness|luminosity|light level',
    baseUp: 20,
    baseDown: 20,
    lo: -95,
    hi: 300,
  },
  {
    kind: 'contrast',
    up: 'more contrast(?:y)?|contrastier|higher contrast|high contrast|stronger contrast|contrasty|too flat|looks flat|so flat|(?:is|looks) (?:a bit |too )?flat|crisper contrast|deeper blacks',
    down: 'less contrast|lower contrast|low contrast|softer contrast|too contrasty|too harsh|too much contrast|flatter|less harsh|softer look',
    noun: 'contrast',
    baseUp: 20,
    baseDown: 20,
    lo: -90,
    hi: 300,
  },
  {
    kind: 'saturation',
    up: 'more saturated|saturate|more vivid|vivid(?: colors)?|vibrant(?: colors)?|more vibrant|more color(?:ful)?|colorful|richer colors?|rich colors?|colors? (?:more )?(?:vivid|vibrant|saturated|intense|rich|bold|stronger|brighter)|stronger colors?|brighter colors?|bolder colors?|more intense colors?|undersaturated|under saturated|too dull|dull|(?:more )?vibrance',
    down: 'less saturated|desaturate(?:d)?|less vivid|less vibrant|less color(?:ful)?|muted? colors?|muted|too saturated|oversaturated|over saturated|too colorful|too vivid|too vibrant|subdued colors?|softer colors?|calmer colors?|less intense colors?|colors? (?:less )?(?:muted|softer|subdued|calmer)',
    noun: 'saturation|colors?|color intensity|vibrance|chroma',
    baseUp: 30,
    baseDown: 40,
    lo: -100,
    hi: 300,
  },
  {
    kind: 'temperature',
    up: 'warmer|warm(?: it)? up|warm(?: (?:tones?|look|colors?|filter|feel|vibe|light|hues?|tint|cast|glow))?|more warmth|golden(?: tones?| hour| light| glow)?|sunnier|too cold|too cool|too blue|less blue|less cold|less cool|(?:take|get) (?:the |some )?blue(?: tint| cast| tone)? out|remove (?:the )?blue(?: tint| cast| tone)?|cozy|cosy|warmth|not (?:so|as) (?:cold|blue)',
    down: 'cooler|colder|cool(?: it)? down|cool(?: (?:tones?|look|colors?|filter|feel|vibe|light|hues?|tint|cast))?|cold(?: look| tones?| feel)?|icy|frosty|chilly|less warm|less yellow|less orange|(?:take|get) (?:the |some )?(?:yellow|orange)(?: tint| cast| tone)? out|remove (?:the )?(?:yellow|orange)(?: tint| cast| tone)?|too warm|too yellow|too orange|not (?:so|as) (?:warm|yellow|orange)|more blue|bluer|blue(?: tones?| hour)',
    noun: 'warmth|temperature|white balance',
    baseUp: 15,
    baseDown: 15,
    lo: -60,
    hi: 60,
  },
];

function adjustLabel(kind: AdjustKind, p: number): string {
  const name = kind === 'temperature' ? 'warmth' : kind;
  return `${name} ${p >= 0 ? '+' : ''}${round1(p)}%`;
}

export function adjustOp(kind: AdjustKind, percent: number): EditOp {
  return { type: kind, percent } as EditOp;
}

function adjustRules(spec: AdjustSpec): Rule[] {
  const value = (dir: 1 | -1 | 0, raw: string | undefined, k: number): EditOp => {
    let p: number;
    if (raw !== undefined) {
      const v = Number(raw);
      if (dir !== 0) p = dir * Math.abs(v);
      else if (/^[+-]/.test(raw)) p = v;
      else if (v >= 100) p = v - 100;
      else p = v;
    } else p = (dir || 1) * (dir === -1 ? spec.baseDown : spec.baseUp) * k;
    return adjustOp(spec.kind, round1(clamp(p, spec.lo, spec.hi)));
  };
  const by = `(?: (?:by|to|of|at|=|:))? ?${NUM} ?%?`;
  return [
    { re: new RegExp(`\\b(?:${spec.up})\\b(?:${by})?`, 'g'), make: (m, _c, k) => value(1, m[1], k) },
    { re: new RegExp(`\\b(?:${spec.down})\\b(?:${by})?`, 'g'), make: (m, _c, k) => value(-1, m[1], k) },
    { re: new RegExp(`\\b${MORE}(?: the| some)? (?:${spec.noun})\\b(?:${by})?`, 'g'), make: (m, _c, k) => value(1, m[1], k) },
    { re: new RegExp(`\\b${LESS}(?: the| some)? (?:${spec.noun})\\b(?:${by})?`, 'g'), make: (m, _c, k) => value(-1, m[1], k) },
    { re: new RegExp(`\\b(?:${spec.noun})${by}`, 'g'), make: (m, _c, k) => value(0, m[1], k) },
    { re: new RegExp(`\\b${NUM} ?% (?:more |extra |higher )?(?:${spec.noun}|${spec.up})\\b`, 'g'), make: (m, _c, k) => value(1, m[1], k) },
    { re: new RegExp(`\\b${NUM} ?% (?:less |lower )(?:${spec.noun})\\b|\\b${NUM} ?% (?:${spec.down})\\b`, 'g'), make: (m, _c, k) => value(-1, m[1] ?? m[2], k) },
  ];
}

/** 'twice as bright', '3 times brighter', 'half as bright'. */
const MULTIPLE_RULES: Rule[] = [
  {
    re: /\b(twice|double|2x|3x|4x|(\d(?:\.\d)?) ?(?:x|times)) (?:as )?(bright|brighter|light|lighter|the brightness|the exposure|exposure)\b|\bdouble the (brightness|exposure)\b/g,
    make: (m) => {
      const f = m[2] !== undefined ? Number(m[2]) : /3x/.test(m[1] ?? '') ? 3 : /4x/.test(m[1] ?? '') ? 4 : 2;
      return adjustOp('brightness', round1(clamp((f - 1) * 100, -95, 300)));
    },
  },
  { re: /\bhalf as (?:bright|light)\b|\bhalve the (?:brightness|exposure)\b/g, make: () => adjustOp('brightness', -50) },
  {
    re: /\b(twice|double|2x|(\d(?:\.\d)?) ?(?:x|times)) (?:as )?(saturated|colorful|vivid|vibrant|the saturation|the contrast|contrasty)\b/g,
    make: (m) => {
      const f = m[2] !== undefined ? Number(m[2]) : 2;
      const kind = /contrast/.test(m[3]!) ? 'contrast' : 'saturation';
      return adjustOp(kind, round1(clamp((f - 1) * 100, -90, 300)));
    },
  },
];

// ---------------------------------------------------------------- regions

function region(region: RegionName, action: RegionAction, strength = 1, color?: string): EditStep {
  return { type: 'region', region, action, strength, ...(color ? { color } : {}) };
}

const BLUR_W = '(?:blur(?:red|ry|rier|s)?|soften(?:ed)?|soft|defocus(?:ed)?|out of focus|unfocused|fuzzy|bokeh)';
const REMOVE_W = '(?:remove|delete|erase|cut(?: out)?|get rid of|take (?:out|away|off)|drop|lose|ditch|strip(?: out| away)?|clear|eliminate|knock out|kill|nuke)';
const GRAY_W = '(?:grayscale|desaturate(?:d)?|gray|colorless|monochrome|mono|no color)';
const EXCEPT = '(?:except(?: for)?|but(?: not)?|apart from|other than|besides|save(?: for)?|excluding|aside from|but keep)';

const REGION_RULES: Rule[] = [
  // remove the background (a transparent PNG)
  {
    re: new RegExp(
      `\\b${REMOVE_W} ${BG}\\b|\\b${BG} (?:removal|removed|remover|off|gone|transparent|see[- ]through|cut out)\\b|\\bmake ${BG} (?:transparent|see[- ]through|invisible|disappear|go away)\\b|\\btransparent(?: ${BG}| png| cut ?out| version)?\\b|\\b(?:cut ?out|isolate|extract|lift out|separate) ${SUBJ}(?: from ${BG})?\\b|\\bcut ${SUBJ} out(?: of (?:the |this )?(?:photo|background))?\\b|\\b(?:with ?out|no) (?:a |the |any )?background\\b|\\bremove ?bg\\b|\\bbackground eraser\\b|\\bsticker\\b`,
      'g',
    ),
    make: () => region('background', 'remove'),
  },
  // a plain colour behind the subject
  {
    re: new RegExp(
      `\\b(?:make|turn|change|replace|set|paint|fill|swap|put)(?: the subject| it| me| him| her| them)? ?(?:${BG}|on|against)? (?:to |with |into |in |on |for )?(?:a |an )?(?:plain |solid |pure |clean |simple |studio )?${COLOR_WORDS}(?: background| backdrop| one| color| studio background)?\\b|\\b(?:a |an |on |against )?(?:plain |solid |pure |clean |simple |studio )?${COLOR_WORDS} (?:background|backdrop|studio background)\\b`,
      'g',
    ),
    make: (m, clause) => {
      // 'make it red' (no background named) is a tint, not a fill.
      if (!/background|backdrop|\bon\b|against/.test(m[0])) return null;
      const name = (m[1] ?? m[2])!;
      void clause;
      return { steps: [region('background', 'fill', 1, COLOR_HEX[name])], colorName: name };
    },
  },
  // blur the background
  {
    re: new RegExp(
      `\\b${BLUR_W}(?: out)?(?: (?:the |a bit |a little |slightly |more |just ))?(?: ${BG}| everything (?:but|except|apart from|other than|behind) ${SUBJ}| the rest)\\b|\\b${BG} (?:is |more |a bit |slightly |too )?(?:${BLUR_W}|less sharp|less detailed)\\b|\\bmake ${BG} (?:more |a bit |slightly |a little )?${BLUR_W}\\b|\\b(?:bokeh|portrait mode|portrait effect|shallow (?:depth of field|focus|dof)|depth of field|background blur|blurred background|blurry background|soft background|tilt[- ]shift)(?: effect)?\\b|\\bfocus (?:only )?on ${SUBJ}\\b|\\b${SUBJ} in focus\\b|\\bmake ${SUBJ} (?:stand out|pop) from ${BG}\\b`,
      'g',
    ),
    make: (_m, _c, k) => region('background', 'blur', k),
  },
  // black and white except the subject
  {
    re: new RegExp(
      `\\b${GRAY_W}(?: everything| all| the rest| the photo| it)? ${EXCEPT} ${SUBJ}\\b|\\b${GRAY_W} ${BG}\\b|\\bmake ${BG} (?:${GRAY_W}|gray)\\b|\\b${BG} (?:in |to )?${GRAY_W}\\b|\\b(?:keep|leave) (?:only |just )?${SUBJ} (?:in )?color\\b|\\b(?:only|just) ${SUBJ} (?:in )?color\\b|\\b${SUBJ} (?:in )?color(?:,| and| with)? (?:the )?(?:rest|background|everything else)(?: in)? ${GRAY_W}\\b|\\b(?:everything|all|the rest) (?:but|except|apart from|other than) ${SUBJ} (?:in |to )?${GRAY_W}\\b|\\bcolor ?(?:splash|pop)\\b|\\bselective color(?:ing)?\\b|\\bsplash of color\\b|\\bremove (?:the )?color (?:from|of) ${BG}\\b`,
      'g',
    ),
    make: () => region('background', 'grayscale'),
  },
  // darker / brighter / muted background
  {
    re: new RegExp(`\\b(?:darken|darker|dim|dimmer|deepen)(?: the)? ${BG}\\b|\\b${BG} (?:a bit |slightly |much )?(?:darker|dimmer)\\b|\\bmake ${BG} (?:a bit |slightly |much )?(?:darker|dimmer)\\b`, 'g'),
    make: (_m, _c, k) => region('background', 'darken', k),
  },
  {
    re: new RegExp(`\\b(?:brighten|lighten|brighter|lighter)(?: the)? ${BG}\\b|\\b${BG} (?:a bit |slightly |much )?(?:brighter|lighter)\\b|\\bmake ${BG} (?:a bit |slightly |much )?(?:brighter|lighter)\\b`, 'g'),
    make: (_m, _c, k) => region('background', 'brighten', k),
  },
  {
    re: new RegExp(`\\b(?:mute|desaturate|tone down)(?: the)? ${BG}\\b|\\b${BG} (?:less colorful|muted|less saturated)\\b`, 'g'),
    make: (_m, _c, k) => region('background', 'desaturate', k),
  },
  // the face
  {
    re: new RegExp(
      `\\b(?:brighten|lighten|light up|lift|illuminate|brighter|lighter|more light on|fix (?:the )?shadows? on|add light to|expose for)(?: up)? ${FACE}\\b|\\bmake ${FACE} (?:a bit |slightly |much )?(?:brighter|lighter|more visible)\\b|\\b${FACE} (?:is |are |looks? )?(?:a bit |too |so |very )?(?:dark|darker than|shadowed|in (?:the )?shadows?|underexposed|hard to see)\\b|\\b${FACE} (?:a bit |slightly )?(?:brighter|lighter)\\b|\\b(?:see|show) ${FACE} better\\b`,
      'g',
    ),
    make: (_m, _c, k) => region('face', 'brighten', k),
  },
  {
    re: new RegExp(`\\b(?:smooth|soften|airbrush|retouch)(?: out)? ${FACE}\\b|\\b(?:skin smoothing|smooth(?:er)? skin|soft(?:er)? skin|airbrush(?:ed)?(?: look)?)\\b`, 'g'),
    make: (_m, _c, k) => region('face', 'smooth', k),
  },
  {
    re: new RegExp(`\\b(?:darken|darker)(?: the)? ${FACE}\\b|\\b${FACE} (?:is |looks )?(?:too )?(?:bright|shiny|overexposed|blown out)\\b`, 'g'),
    make: (_m, _c, k) => region('face', 'darken', k),
  },
  // the subject
  {
    re: new RegExp(
      `\\b(?:brighten|lighten|light up|lift|highlight|brighter|lighter)(?: up)? ${SUBJ}\\b|\\bmake ${SUBJ} (?:a bit |slightly |much )?(?:brighter|lighter)\\b|\\b${SUBJ} (?:is |are |looks? )?(?:a bit |too |so )?(?:dark|underexposed|in (?:the )?shadows?)\\b`,
      'g',
    ),
    make: (_m, _c, k) => region('subject', 'brighten', k),
  },
  {
    re: new RegExp(`\\bmake ${SUBJ} (?:stand out|pop|more vivid|pop out)\\b|\\b${SUBJ} (?:stand out|pop)\\b|\\b(?:emphasi[sz]e|accentuate) ${SUBJ}\\b`, 'g'),
    make: (_m, _c, k) => region('subject', 'pop', k),
  },
  {
    re: new RegExp(`\\b(?:darken|darker)(?: the)? ${SUBJ}\\b|\\bmake ${SUBJ} (?:a bit |slightly )?darker\\b`, 'g'),
    make: (_m, _c, k) => region('subject', 'darken', k),
  },
  // the sky
  {
    re: new RegExp(
      `\\b(?:more |a more )?(?:dramatic|stormy|moody|intense|epic|deep|deeper|punchy|punchier|bold|striking|powerful|richer|moodier)(?: looking)? ${SKY}\\b|\\b${SKY} (?:look )?(?:more |a bit |much |a lot )?(?:dramatic|stormy|moody|moodier|intense|epic|pop|punchy|punchier|deeper|richer|striking|powerful)\\b|\\bmake ${SKY} (?:look )?(?:more |a bit |much |a lot |really )?(?:dramatic|stormy|moody|moodier|intense|epic|deeper|pop|punchy|punchier|stand out|richer|striking)\\b|\\b(?:enhance|boost|improve|fix|intensify|bring out|emphasi[sz]e|punch up)(?: the)? ${SKY}\\b|\\b(?:more )?drama (?:in|to) ${SKY}\\b`,
      'g',
    ),
    make: (_m, _c, k) => region('sky', 'dramatic', k),
  },
  {
    re: new RegExp(`\\b(?:bluer|blue|deep blue|deeper blue|more blue)(?: looking)? ${SKY}\\b|\\bmake ${SKY} (?:more |a bit |much )?(?:blue|bluer)\\b|\\b${SKY} (?:more |a bit )?(?:blue|bluer)\\b`, 'g'),
    make: (_m, _c, k) => region('sky', 'blue', k),
  },
  {
    re: new RegExp(`\\b(?:darken|darker|dim)(?: the)? ${SKY}\\b|\\b${SKY} (?:a bit |slightly |much )?darker\\b|\\bmake ${SKY} (?:a bit |slightly |much )?darker\\b|\\b${SKY} (?:is )?(?:too )?(?:bright|blown out|overexposed|white)\\b`, 'g'),
    make: (_m, _c, k) => region('sky', 'darken', k),
  },
  {
    re: new RegExp(`\\b(?:brighten|lighten|brighter|lighter)(?: the)? ${SKY}\\b|\\bmake ${SKY} (?:a bit |slightly )?(?:brighter|lighter)\\b`, 'g'),
    make: (_m, _c, k) => region('sky', 'brighten', k),
  },
  {
    re: new RegExp(`\\b(?:warm|warmer|golden|orange|pink|sunset)(?: colored)? ${SKY}\\b|\\bmake ${SKY} (?:a )?(?:more |bit )?(?:warm|warmer|golden|orange|pink|pinker)(?: sunset| glow)?\\b|\\bwarm up ${SKY}\\b`, 'g'),
    make: (_m, _c, k) => region('sky', 'warm', k),
  },
];

// ---------------------------------------------------------------- framing

function crop(a: number, b: number): EditOp {
  return { type: 'crop', aspect: [a, b] };
}

const FRAMING_RULES: Rule[] = [
  {
    re: /\b(?:(?:crop(?:ped)?|make|change|convert|turn|reframe|resize|format|set|cut)(?: it| this| the photo| the aspect ratio| the ratio)?(?: to| into| as| in| at| for)?(?: an?| the)? )?(?:aspect(?: ratio)?(?: of)? |ratio(?: of)? )?(\d{1,2}(?:\.\d{1,2})?) ?(:|\/|x|×| by | to ) ?(\d{1,2}(?:\.\d{1,2})?)(?: (?:aspect(?: ratio)?|ratio|format|crop|frame|size|please))?\b/g,
    make: (m, clause) => {
      const a = Number(m[1]);
      const b = Number(m[3]);
      const sep = m[2]!.trim();
      if (!(a > 0 && b > 0) || a / b > 10 || b / a > 10) return null;
      // '16 x 9' reads as a ratio only beside a word that says so ('crop', 'ratio', 'make it').
      if (sep !== ':' && sep !== '/' && !/\b(?:crop|ratio|aspect|format|make|convert|reframe|frame)\b/.test(clause)) return null;
      return crop(a, b);
    },
  },
  {
    re: /\b(?:(?:make it |crop(?: it)?(?: to| into| as| for)? |reframe(?: it)?(?: for| as)? |format(?: it)?(?: for| as)? |resize(?: it)? for |turn it into )?(?:a |an )?(?:(?:portrait|vertical|tall)(?: format| crop| version| orientation)? for (?:instagram |insta |ig |facebook |fb )?(?:stories|story|reels?|tiktok|shorts|status)|(?:instagram|insta|ig|facebook|fb|snapchat|whatsapp|youtube) (?:story|stories|reels?|shorts)|(?:for |as )?(?:a |an )?(?:story|stories|reels?|tiktok|shorts)(?: format| size| ratio)?|(?:phone|mobile|iphone|android) (?:wallpaper|background|screen)|lock ?screen|vertical video))\b/g,
    make: () => crop(9, 16),
  },
  {
    re: /\b(?:(?:crop |make it |format )?(?:for |as )?(?:an? )?(?:instagram|insta|ig) (?:post|feed|portrait)|for (?:instagram|insta|ig)(?! (?:story|stories|reels?|square)))\b/g,
    make: () => crop(4, 5),
  },
  {
    re: /\b(?:(?:crop |make it |format )?(?:for |as )?(?:an? )?(?:widescreen|wide ?screen|youtube(?: thumbnail| video)?|(?:desktop|laptop|pc|computer) (?:wallpaper|background)|tv(?: screen)?|hd format|landscape for youtube|presentation slide|slide))\b/g,
    make: () => crop(16, 9),
  },
  {
    re: /\b(?:cinematic (?:crop|format|ratio|aspect|bars|widescreen)|letterbox(?:ed)?|anamorphic|cinemascope|ultra ?wide)\b/g,
    make: () => crop(21, 9),
  },
  {
    re: /\b(?:(?:crop(?: it)?(?: to| into| as)?|make it|cut(?: it)?(?: to| into)?|turn it into|format(?: it)?(?: as)?)(?: a| an)? )?(?:instagram |insta |ig )?(?:square(?: crop| format| shape| version| photo)?|profile (?:picture|pic|photo)|avatar|pfp)\b/g,
    make: () => crop(1, 1),
  },
  {
    re: /\b(?:make it |crop(?: it)?(?: to| into| as)?(?: a)? |turn it |change it to |switch to )(?:portrait|vertical)(?: orientation| format| mode| crop)?\b|\b(?:portrait|vertical) (?:orientation|format|crop)\b/g,
    make: () => crop(3, 4),
  },
  {
    re: /\b(?:make it |crop(?: it)?(?: to| into| as)?(?: a)? |turn it |change it to |switch to )(?:landscape|horizontal)(?: orientation| format| mode| crop)?\b|\b(?:landscape|horizontal) (?:orientation|format|crop)\b/g,
    make: () => crop(4, 3),
  },
  {
    re: /\b(?:panorama|panoramic|(?:twitter|linkedin|facebook|x|youtube|website|web) (?:header|banner|cover)|banner)\b/g,
    make: () => crop(3, 1),
  },
  {
    re: /\bstraighten(?: it| the photo| the horizon| the image)? (?:by )?([+-]?\d{1,2}(?:\.\d{1,2})?) ?(?:°|degrees?|deg)\b/g,
    make: (m) => ({ type: 'straighten', degrees: round1(clamp(Number(m[1]), -45, 45)) }),
  },
  {
    re: /\b(?:straighten|straigthen)(?: (?:up|out))?(?: (?:the |my |this )?(?:horizon|horizon line|photo|picture|image|it|this|shot|building|buildings|lines|walls|sea|ocean|skyline))?\b|\blevel(?: out| off)? (?:the )?(?:horizon|photo|shot|it)\b|\b(?:make )?(?:the )?horizon (?:level|straight|flat|even)\b|\b(?:fix|correct|remove|undo|get rid of) (?:the )?(?:tilt(?:ed)?|crooked|wonky|slanted|skew(?:ed)?|uneven|angle|lean(?:ing)?)(?: horizon| angle| photo| lines)?\b|\b(?:is|looks|are|seems) (?:a bit |slightly |too |so |really )?(?:tilted|crooked|wonky|slanted|skewed|not (?:straight|level)|uneven|leaning|off level)\b|\b(?:un-?tilt|de-?skew|deskew|level it|make it (?:level|straight))\b|\b(?:tilted|crooked|wonky) (?:horizon|photo|shot)\b/g,
    make: () => ({ type: 'straighten' }),
  },
  {
    re: new RegExp(
      `\\b(?:center|middle|recenter)(?: on)? ${SUBJ}\\b|\\b(?:put|place|move|position|bring|get) ${SUBJ} (?:in(?:to)?|at|to) the (?:center|middle)\\b|\\b${SUBJ} (?:in the (?:center|middle)|centered|in center)\\b|\\bre-?center(?:ed)?(?: it| the photo| the shot)?\\b|\\bre-?frame (?:on|around) ${SUBJ}\\b|\\bcrop (?:around|to|on) ${SUBJ}\\b|\\bcenter (?:it|the composition|the shot|the photo)\\b|\\bcentered composition\\b`,
      'g',
    ),
    make: () => ({ type: 'center-subject' }),
  },
  {
    re: /\b(?:zoom in|crop (?:in )?(?:tighter|closer|in)|tighter crop|closer crop|get closer|crop it in|crop a bit|punch in)\b/g,
    make: (_m, _c, k) => ({ type: 'crop', percent: k < 1 ? 90 : k > 1 ? 65 : 80 }),
  },
];

// ---------------------------------------------------------------- looks

function look(name: LookName): Rule['make'] {
  return (_m, _c, k) => ({ type: 'look', look: name, strength: k });
}

const LOOK_RULES: Rule[] = [
  { re: /(?<!\b(?:remove|reduce|less|no|fix|clean up|get rid of|too) (?:the |all |some |all the )?)\b(?:(?:film |fine |heavy |light |some |subtle )?grain(?:y| effect)?|(?:add )?(?:some )?noise(?: effect)?|noisy look|film grain)\b(?! (?:reduction|removal))/g, make: (_m, _c, k) => ({ type: 'grain', strength: k }) },
  {
    re: /\b(?:vignett?(?:e|ing)|dark(?:en|er|ened)? (?:the )?(?:corners|edges|borders|sides)|(?:corners|edges) (?:darker|dark|darkened)|burn(?:ed)? (?:in )?(?:the )?edges|edge burn)\b/g,
    make: (_m, _c, k) => ({ type: 'vignette', strength: k }),
  },
  { re: /\b(?:(?:film )?noir|(?:high|strong|hard|harsh)[- ]contrast grayscale|(?:dramatic|moody|gritty|contrasty) grayscale|grayscale (?:with|and) (?:high|more|strong|lots of) contrast)\b/g, make: look('noir') },
  {
    re: /\b(?:vintage|retro|old[- ]?school|(?:19)?[6-9]0'?s|sixties|seventies|eighties|nineties|polaroid|instant (?:film|camera|photo)|nostalgic|nostalgia|throwback|lomo(?:graphy)?|faded film|expired film|disposable camera)(?: (?:look|style|vibes?|feel|filter|effect|tones?|colors?))?\b/g,
    make: look('vintage'),
  },
  {
    re: /\b(?:(?:an? |the )?old(?:[- ]?(?:timey?|fashioned|time|school))?(?: looking)? (?:photo|photograph|picture|print|snapshot|film|camera|image|family photo|postcard)|antique|aged(?: photo| look| paper| print)?|age (?:it|the photo)|weathered|victorian|daguerreotype|tintype|from the (?:1800s|1900s|19th century|old days|past)|(?:19)?[2-5]0'?s|twenties|thirties|forties|fifties|sepia (?:look|photo|tones?d?|style|vintage|effect|filter)|old[- ]?timey?(?: (?:look|feel|vibes?|style))?|old[- ]fashioned(?: (?:look|feel|style))?|make it (?:look )?old(?:er)?|look(?:s)? old(?:er)?|older look|historic(?:al)? (?:photo|look)|(?:like )?grandma'?s photo|century old)\b/g,
    make: look('old-photo'),
  },
  { re: /\b(?:mood(?:y|ier|iness)|dark and moody|moody and dark|brooding|gloomy|melanchol(?:y|ic)|somber|sombre|atmospheric|dark mood|dark vibes?|dark aesthetic)(?: (?:look|vibes?|feel|tones?|style|edit))?\b/g, make: look('moody') },
  {
    re: /\b(?:cinematic|filmic|movie(?: look| still| scene| style| vibes?|[- ]like| poster)?|like (?:a |in a |from a )?(?:movie|film)(?: still| scene)?|hollywood|blockbuster|teal (?:and|&) orange|orange (?:and|&) teal|color ?grad(?:e|ed|ing)|cine look)(?: (?:look|style|feel|vibes?|grade|tones?|colors?))?\b/g,
    make: look('cinematic'),
  },
  {
    re: /\b(?:film(?: look| photo| photography| stock| emulation| style| camera| vibes?| feel| simulation)?|analog(?:ue)?(?: look| film| photo| camera| feel)?|35 ?mm|kodak|portra|fuji(?:film)?|shot on film|ektar|cinestill|kodachrome|ektachrome)\b/g,
    make: look('film'),
  },
  {
    re: /\b(?:(?:pencil|charcoal|graphite|ink|line|hand)[- ]?(?:drawing|sketch|art|style|drawn)|(?:pencil|charcoal)(?: ?sketch)?|sketch(?:ed|y|book)?(?: style| look| effect| version)?|drawing(?: style| effect)?|drawn|hand[- ]drawn|line art|draw (?:it|this)|coloring book)\b/g,
    make: look('sketch'),
  },
  {
    re: /\b(?:(?:an? )?(?:oil |acrylic |watercolor |impressionist |classical )?paint(?:ing|ed|erly)(?: style| look| effect| version)?|oil paint|watercolou?r(?: style| effect| painting)?|impressionis[mt]|artistic(?: look| effect| style)?|brush ?strokes?|on canvas|canvas|like (?:a work of )?(?:fine )?art|art piece|artwork)\b/g,
    make: look('painting'),
  },
  {
    re: /\b(?:hdr|high dynamic range|tone ?map(?:ped|ping)?|(?:bring out|recover|lift|open up|boost|show|reveal) (?:the |more )?(?:details?|shadows?|shadow details?)(?: in the shadows| and highlights)?|(?:brighten|lighten|lift) (?:the )?shadows|shadows (?:brighter|lighter|lifted|up)|more details? in (?:the )?shadows|recover (?:the )?highlights|(?:less|softer) harsh shadows|too much shadow|shadows (?:are )?too dark|dark shadows)\b/g,
    make: look('hdr'),
  },
  {
    re: /\b(?:too (?:faded|washed[- ]out|dull|flat|bland|lifeless|boring|plain|muddy)|(?:looks?|is|are|seems?) (?:a bit |so |very |kind of |kinda )?(?:faded|washed[- ]out|dull|bland|lifeless|boring|plain|muddy)|pop(?:py|s)?|make (?:it|the colors?|the photo|everything) pop|punch(?:y|ier)?|more punch|(?:more )?lively|eye[- ]catching|crisp and (?:clear|bright|vivid)|stand out|more impact|wow factor|instagram(?:mable)? (?:look|filter)|instagrammy)\b/g,
    make: look('pop'),
  },
  {
    re: /\b(?:matte?|matt)(?: (?:look|finish|effect|style|tones?))?\b|\b(?:faded(?: (?:look|style|colors?|tones?|effect))?|fade(?: it| out)?|washed[- ]out(?: (?:look|style|effect))?|lifted blacks|milky blacks|soft tones?|muted look|pastel(?: (?:look|tones?|colors?))?)\b/g,
    make: look('matte'),
  },
  { re: /\b(?:dramatic(?: (?:look|effect|style|feel|lighting|light|mood))?|drama|more drama|epic(?: look)?|intense look|gritty|(?:high|strong) impact)\b/g, make: look('dramatic') },
  { re: /\b(?:dream(?:y|ier|like)|ethereal|soft glow|glow(?:ing|y)?|orton(?: effect)?|hazy|haze|soft focus|bloom|angelic|magical|fairy ?tale|romantic(?: look| glow)?)(?: (?:look|effect|vibes?|feel|style))?\b/g, make: look('dreamy') },
  {
    re: /\b(?:enhance|improve|auto[- ]?(?:enhance|fix|correct(?:ion)?|adjust|tone|levels?)|make it (?:look )?(?:better|nicer|good|great|prettier|more beautiful|professional)|fix (?:it|this|the photo|the (?:lighting|exposure|colors?|levels|white balance))|touch(?: it)? up|polish(?: it)?|beautify|optimi[sz]e|looks? better|one[- ]click fix)\b/g,
    make: () => ({ type: 'normalize' }),
  },
  {
    re: /\b(?:sharp(?:en|er|ness)?(?! shadows)|crisp(?:er)?|clarity|more (?:clarity|detail(?:ed)?|definition)|less blurry|in focus|more defined|detailed)\b(?: ?(?:by )?([0-9](?:\.\d)?)(?!\d| ?%))?/g,
    make: (m, _c, k) => ({ type: 'sharpen', sigma: m[1] !== undefined ? clamp(Number(m[1]), 0.3, 10) : round1(1.5 * k) }),
  },
  {
    re: new RegExp(`\\b(?:make|turn) (?:it|everything|the photo|the whole (?:photo|thing)|the image)(?: look)? (?:a bit |slightly |more |a little |very )?(bluish|reddish|greenish|pinkish|purplish|yellowish|orangey|orangish|${COLOR_WORDS.slice(1, -1)})\\b|\\b(bluish|reddish|greenish|pinkish|purplish|yellowish)(?: tint| tone| look| cast)?\\b`, 'g'),
    make: (m) => {
      const word = (m[1] ?? m[2])!;
      const name = TINT_WORDS[word] ?? word;
      if (name === 'white' || name === 'black') return null;
      if (name === 'gray') return { type: 'grayscale' };
      return { steps: [{ type: 'tint', color: COLOR_HEX[name] ?? '#ffffff' }], colorName: name };
    },
  },
];

// Order matters only for ties (same start, same length): earlier rules win.
export const LOCAL_RULES: Rule[] = [
  ...REGION_RULES,
  ...FRAMING_RULES,
  ...MULTIPLE_RULES,
  ...LOOK_RULES,
  ...ADJUST.flatMap(adjustRules),
];

/** Every non-overlapping phrase of the clause the rules understand (earliest first; the longest wins a tie). */
export function findLocal(clause: string): RuleHit[] {
  const cands: Array<RuleHit & { order: number }> = [];
  LOCAL_RULES.forEach((rule, order) => {
    for (const m of nonEmptyMatches(rule.re, clause)) {
      const end = m.index + m[0].trimEnd().length;
      const made = rule.make(m, clause, intensityAround(clause, m.index, end));
      if (!made) continue;
      const hit: Omit<RuleHit, 'start' | 'end'> = Array.isArray(made) ? { steps: made } : 'steps' in made ? made : { steps: [made] };
      cands.push({ start: m.index, end, order, ...hit });
    }
  });
  cands.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start) || a.order - b.order);
  const chosen: RuleHit[] = [];
  let end = -1;
  for (const c of cands) {
    if (c.start >= end) {
      chosen.push({ start: c.start, end: c.end, steps: c.steps, ...(c.colorName ? { colorName: c.colorName } : {}) });
      end = c.end;
    }
  }
  return chosen;
}

export { adjustLabel };
