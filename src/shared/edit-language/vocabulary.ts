/** Word lists the rules share: how much, which colour, which part of the picture. */

/** 'a bit brighter', 'brighter, just a touch'. */
export const SMALL_RE =
  /\b(?:slightly|slight|a (?:little|tiny|wee) bit|a (?:little|bit|touch|tad|smidge|hint|notch)|little|bit|somewhat|subtly|subtle|gently|gentle|mildly|mild|lightly|barely|touch)\b/;
/** 'much brighter', 'brighter, a lot'. */
export const LARGE_RE =
  /\b(?:much|a lot|lots|loads|way|very|really|significantly|strongly|strong|heavily|heavy|extremely|super|hugely|massively|tons?|seriously|considerably|intensely|drastically|big time|so much|crazy|insanely|max(?:imum)?)\b/;

/** How much a match is scaled by the words around it (0.5, 1 or 2). */
export function intensityAround(clause: string, start: number, end: number): number {
  const before = clause.slice(Math.max(0, start - 28), start);
  const after = clause.slice(end, end + 24);
  // The match itself may hold the amount ('super dark', 'a bit bright').
  const near = `${before} | ${clause.slice(start, end)} | ${after}`;
  if (SMALL_RE.test(near)) return 0.5;
  if (LARGE_RE.test(near)) return 2;
  return 1;
}

export const COLOR_HEX: Record<string, string> = {
  white: '#ffffff', black: '#000000', gray: '#808080', red: '#e53935', green: '#43a047', blue: '#1e88e5',
  yellow: '#fdd835', orange: '#fb8c00', purple: '#8e24aa', violet: '#8e24aa', pink: '#ec407a', magenta: '#d81b60',
  cyan: '#00acc1', teal: '#00897b', brown: '#6d4c41', beige: '#f5f5dc', cream: '#fffdd0', navy: '#1a237e',
  gold: '#d4af37', golden: '#d4af37', silver: '#c0c0c0', lavender: '#b39ddb', mint: '#98ff98', peach: '#ffcba4',
  'light blue': '#90caf9', 'sky blue': '#87ceeb', 'light gray': '#d3d3d3', 'dark gray': '#404040',
};
export const COLOR_WORDS = '(light blue|sky blue|light gray|dark gray|white|black|gray|red|green|blue|yellow|orange|purple|violet|pink|magenta|cyan|teal|brown|beige|cream|navy|gold|golden|silver|lavender|mint|peach)';
/** 'bluish', 'reddish'. */
export const TINT_WORDS: Record<string, string> = {
  bluish: 'blue', reddish: 'red', greenish: 'green', pinkish: 'pink', purplish: 'purple', yellowish: 'yellow', orangey: 'orange', orangish: 'orange',
};

const POSSESSIVE = "(?:the |my |this |that |his |her |their |your |our |its )?";
/** The background: 'the background', 'everything behind her'. */
export const BG = `${POSSESSIVE}(?:background|surroundings|scenery|everything (?:else|behind|around)(?: (?:him|her|them|me|it|the subject|the person))?|area behind(?: (?:him|her|them|me|the subject))?|behind (?:him|her|them|me|the subject|the person|the people))`;
/** The subject: a person or the main object. */
export const SUBJ = `${POSSESSIVE}(?:main )?(?:subject|person|people|model|foreground|figure|man|woman|guy|girl|boy|kid|child|baby|dog|cat|pet|product|object|me|him|her|them|us)`;
export const SKY = `${POSSESSIVE}(?:sky|skies|clouds|skyline)`;
export const FACE = `${POSSESSIVE}(?:face|faces|skin|complexion)`;

/** Words that carry no request ('please make the photo ...'). */
export const FILLER = new Set(
  `please thanks thank can could would will you your yours i me my we us our want wanted need needs like love
  would id it its this that these those the a an of to in on at for with by from into onto as and or but so then also
  just maybe perhaps really very quite too more less bit little lot some any make made makes making do does did
  doing give get let lets look looks looking feel feels seem seems be is are was were been being have has had
  photo photograph image shot one whole thing everything all overall now again here there okay ok hey hi hello
  pretty kind sort kinda sorta slightly a lot much way some abit alot whole picture version style effect
  try apply add put turn change set go use if possible able something nice bit them fix tone down`
    .trim()
    .split(/\s+/),
);
