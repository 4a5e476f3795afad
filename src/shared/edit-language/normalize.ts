/**
 * Turns a request as people type it into the plain lower-case words the rules
 * read: emoji that carry a meaning become words (the rest are dropped),
 * contractions and number words are spelled out, common typos of the words
 * the editor knows are corrected, and a few spellings are made one
 * ('black & white', 'b/w' -> 'grayscale'). Quoted text is left exactly as
 * typed: it is the text of an overlay.
 */

/** Words the rules look for: typos are corrected towards these only. */
const KEYWORDS = `
brighter brighten bright brightness lighter lighten darker darken dark dim exposure exposed underexposed overexposed
contrast contrasty saturation saturated saturate desaturate desaturated vibrant vivid colourful colorful colours colors colour color
warmer warm warmth cooler cool colder cold temperature yellow orange blue
vintage retro sepia antique photograph photo picture image old aged nostalgic polaroid
moody moodier gloomy cinematic cinema movie film filmic analog grain grainy noise
sketch pencil drawing charcoal painting painted painterly watercolor watercolour artistic oil
vignette vignetting corners edges hdr matte faded dramatic drama noir dreamy glow ethereal
straighten straight straighter horizon level tilted crooked wonky rotate rotated
center centre centered middle subject person people portrait landscape square widescreen
background backdrop transparent remove removed delete erase blur blurry blurred bokeh focus
sky clouds cloudy face faces skin except keep
crop cropped resize flip mirror sharpen sharper sharpness clarity detail details smooth soften
grayscale greyscale monochrome black white gray grey invert negative border frame text caption
instagram stories story reel tiktok youtube wallpaper vertical horizontal
increase decrease reduce boost lower raise little slightly bit much more less please could would
fireworks winter summer autumn snow night rainbow replace
`
  .trim()
  .split(/\s+/);

/** English words that look like typos of a keyword but are not (never corrected). */
const KEEP = new Set(
  `make made take bake cake lake wake dare care card park mark bark hark lark face race pace lace place fade made
  wide side ride hide tide like bike hike mike line fine mine nine pine wine bold cold hold told gold fold mold sold
  told mode more mood moon noon soon boon look book cook hook took nook rook cool pool tool fool wool
  with this that then than them they there their these those what when where which while white whole
  some same came come home hope nope rope cope note vote tone bone cone done gone none zone lone
  blue clue glue true flue flow glow grow slow show snow know blow brow crow
  sharp shape share shade spade grade trade
  light night right sight tight fight might eight
  more most post host cost lost
  crop drop prop shop stop
  dark bark
  sky sly shy spy
  edge hedge ledge
  less mess bless
  dim him rim
  warm worm wars
  best rest test west vest
  time tile tale
  very vary
  heavy
  bright fright
  level lever
  would could should
  sketch stretch
  paint pain saint
  tilt till tile
  older holder folder colder bolder
  cooler
  color colour
  faded faced
  film firm
  grain brain train drain rain gain
  vivid
  noir noise
  moody muddy
  detail retail
  horizon
  boost boots roost
  people purple
  face fact
  lighting tighter tight fighter lightning brightest thinner range ranges orange arrange strange grange`
    .trim()
    .split(/\s+/),
);

const KNOWN = new Set([...KEYWORDS, ...KEEP]);

/** Damerau-Levenshtein distance, stopping early past `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push(new Array<number>(b.length + 1).fill(0));
    rows[i]![0] = i;
  }
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let rowMin = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
  }
  return rows[a.length]![b.length]!;
}

const corrections = new Map<string, string>();

/** The keyword a mistyped word stands for, or the word itself. */
export function correctWord(word: string): string {
  if (word.length < 4 || KNOWN.has(word) || /\d/.test(word)) return word;
  const cached = corrections.get(word);
  if (cached !== undefined) return cached;
  // Short words allow one transposition or one edit; long words two edits.
  const max = word.length >= 8 ? 2 : 1;
  let best = word;
  let bestD = max + 1;
  for (const k of KEYWORDS) {
    if (k.length < 4) continue;
    const d = distance(word, k, max);
    // A 4-letter word is corrected only by swapping two letters ('wram' -> 'warm').
    if (word.length === 4 && d === 1 && !(word.length === k.length && [...word].sort().join('') === [...k].sort().join(''))) continue;
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  if (corrections.size < 5000) corrections.set(word, best);
  return best;
}

const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60,
  seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};

/** Emoji people use to mean an edit. */
const EMOJI_WORDS: Array<[RegExp, string]> = [
  [/[\u2600\u{1F31E}\u{1F506}\u{1F505}\u{1F4A1}]/gu, ' brighter '],
  [/[\u{1F311}\u{1F319}\u{1F303}\u{1F319}]/gu, ' darker '],
  [/[\u{1F525}]/gu, ' warmer '],
  [/[\u2744\u{1F9CA}\u{1F976}]/gu, ' cooler '],
  [/[\u{1F39E}\u{1F3AC}\u{1F3A5}]/gu, ' cinematic '],
  [/[\u{1F3A8}\u{1F5BC}]/gu, ' painting '],
  [/[\u270F\u{1F58D}]/gu, ' pencil sketch '],
  [/[\u{1F5A4}\u26AB\u26AA]/gu, ' grayscale '],
];

/** The placeholder a quoted string becomes while the rest is normalized. */
const QUOTE_RE = /"[^"]*(?:"|$)|(?<=\b(?:text|caption|title|write|writing|saying|says|say|label|watermark|words?) ?[:=]? ?)'[^']*'/g;

function normalizeWords(s: string): string {
  let t = s.normalize('NFKC').toLowerCase();
  for (const [re, word] of EMOJI_WORDS) t = t.replace(re, word);
  // Other pictographs, variation selectors and joiners carry nothing here.
  t = t.replace(/\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}]|\uFE0F|\u200D/gu, ' ');
  t = t.replace(/[\u2018\u2019\u02bc`´]/g, "'");
  t = t
    .replace(/\bcan't\b|\bcannot\b/g, 'can not')
    .replace(/\bwon't\b/g, 'will not')
    .replace(/\b(\w+)n't\b/g, '$1 not')
    .replace(/\b(it|that|what|there|he|she)'s\b/g, '$1 is')
    .replace(/\bi'm\b/g, 'i am')
    .replace(/\b(i|you|we|they)'(d|ll|ve|re)\b/g, (_a, w: string, c: string) => `${w} ${{ d: 'would', ll: 'will', ve: 'have', re: 'are' }[c]}`)
    .replace(/\blet's\b/g, 'let us');
  t = t.replace(/\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)\b/g, (w) => String(NUMBER_WORDS[w]));
  t = t.replace(/(\d) ?(?:per ?cent|pct)\b/g, '$1%');
  // 'brighterrr', 'soooo': stretched letters.
  t = t.replace(/([a-z])\1{2,}/g, '$1');
  // Each word checked against the keywords (letters only; numbers, '#ff8800' and '16:9' stay).
  t = t.replace(/(?<![#\w])[a-z]{4,24}(?![\w])/g, (w) => correctWord(w));
  t = t
    .replace(/\bblack ?(?:and|&|n|'n'|-and-|\/|\+) ?white\b|\bblackandwhite\b|\bb ?& ?w\b|\bb\/w\b|\bbw\b|\bblack-and-white\b/g, 'grayscale')
    .replace(/\bgr[ae]y ?scale\b/g, 'grayscale')
    .replace(/\bback ?ground\b|\bbg\b|\bbackdrop\b|\bback drop\b/g, 'background')
    .replace(/\bpic\b|\bpix\b|\bimg\b|\bfoto\b|\bpicture\b/g, 'photo')
    .replace(/\bcolou?r(s|ful|ed|ing)?\b/g, (_w, suf: string | undefined) => `color${suf ?? ''}`)
    .replace(/\bgrey\b/g, 'gray')
    .replace(/\bcentre(d)?\b/g, 'center$1')
    .replace(/\bsaturat(?:ion)? ?lvl\b/g, 'saturation')
    .replace(/\bpls\b|\bplz\b|\bplease+\b|\bpleez\b|\bkindly\b/g, 'please')
    .replace(/\bthx\b|\bty\b|\bthanks+\b|\bthank you\b|\bcheers\b/g, 'thanks')
    .replace(/\blil\b/g, 'little')
    .replace(/\bsmth\b|\bsth\b/g, 'something')
    .replace(/\bu\b/g, 'you')
    .replace(/\bur\b/g, 'your')
  return t;
}

/** The normalized request; quoted text is kept as typed. */
export function normalizeRequest(prompt: string): string {
  let out = '';
  let last = 0;
  for (const m of prompt.matchAll(QUOTE_RE)) {
    out += normalizeWords(prompt.slice(last, m.index));
    out += m[0];
    last = m.index + m[0].length;
  }
  out += normalizeWords(prompt.slice(last));
  return out.trim();
}
