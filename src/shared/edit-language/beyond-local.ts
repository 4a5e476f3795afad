/**
 * Requests the local editor cannot do and should not guess at: those that
 * need a generative model (add or remove things, change the season, restyle
 * a person), and those another tool of ours does (noise -> Image Restore,
 * resolution -> Image Upscaler). Each answers with what to do instead.
 */

export type GenerativeKind = 'remove-object' | 'add-object' | 'scene' | 'style' | 'person' | 'replace' | 'expand' | 'recolor-object';
/** Another tool of ours, by its endpoint (its one name in code). */
export type OtherTool = 'fal-image-restore' | 'fal-upscaler' | 'fal-image-to-video';

const ARTICLE = '(?:the |that |this |those |these |a |an |all(?: the)? |my |his |her |their |some |any |every |our )?';
/** What 'remove X' may name and still be local: the background, a colour cast. */
const LOCAL_REMOVE = /\b(?:background|color|colors|tint|cast|saturation|vignette|border|frame)\b/;
/** What 'add X' may name and still be local. */
const LOCAL_ADD =
  /\b(?:text|caption|title|label|watermark|quote|words?|border|frame|outline|margin|padding|vignett\w*|grain|noise|blur|contrast|warmth|saturation|colou?r|glow|light|brightness|sharpness|details?|drama|tint|filter|shadows?|highlights?|clarity|exposure|pop|punch|vibrance|depth|bokeh|mood|effect|look|sepia|sharpen\w*|\d+ ?px)\b|\u0001/;

/** Things only a generative model can put in or take out. */
const GENERATIVE_NOUNS =
  /\b(?:fireworks?|rainbow|snow(?:ing|fall|flakes?)?|rain(?:ing|drops)?|lightning|sunglasses|glasses|hat|hats|crown|unicorn|dragon|dinosaur|ghost|monster|alien|wings|beard|mustache|moustache|tattoo|makeup|lipstick|smile|balloons?|confetti|butterfl(?:y|ies)|birds?|flowers?|trees?|moon|stars|planets?|spaceship|ufo|people|crowd|tourists?|person|man|woman|boyfriend|girlfriend|dog|cat|puppy|kitten|horse|car|boat|plane|sun(?:set|rise)?|lens flare|santa|christmas tree|pumpkins?|sparkles|bubbles|fog|mist|smoke|fire|flames|waterfall|mountains?|ocean|beach|castle|logo)\b/;

const GENERATIVE_PATTERNS: Array<[RegExp, GenerativeKind]> = [
  [/\b(?:replace|swap|switch|change|exchange)\b(?: out)? (?:the |his |her |my |their )?\w+(?: \w+)? (?:with|for|to|into)\b/, 'replace'],
  [/\b(?:make|turn|change|transform|convert|set)(?: it| this| the (?:photo|scene|season|weather|time|setting|day|landscape|time of day))?(?: look)?(?: like| into| to| in| as if it (?:is|was|were))?(?: an?| the| it is| it was)? (?:winter|wintertime|summer|summertime|autumn|fall|spring|snowy|rainy|night|nighttime|night time|evening|daytime|day time|daylight|day|sunset|sunrise|dusk|dawn|christmas|halloween|apocalyptic|post[- ]apocalyptic|cyberpunk|futuristic|underwater|outer space|space|mars|fantasy|medieval|desert|tropical|jungle|foggy|misty)\b/, 'scene'],
  [/\b(?:at|by) night\b|\bin (?:the )?(?:winter|summer|autumn|snow|rain)\b|\bwinter (?:scene|wonderland|version)\b|\bnight (?:scene|time version)\b|\bseason\b/, 'scene'],
  [/\b(?:anime|manga|cartoon(?:ish|y|ify)?|pixar|disney|ghibli|simpsons|lego|claymation|3d (?:render|model|character)|comic(?: book)?|pixel art|caricature|barbie|zombie|vampire|superhero|action figure|sculpture|statue|clay|emoji|avatar style|renaissance|van gogh|picasso|monet|rembrandt|da vinci|warhol|banksy|dali)\b|\b(?:in the )?style of \w+/, 'style'],
  [/\b(?:make|let|have) (?:him|her|them|me|us|everyone|everybody|the (?:man|woman|person|guy|girl|boy|kid|child|baby|people|dog|cat|bride|groom))(?: look)? (?:smile|smiling|laugh|happy|happier|sad|younger|older|old|young|taller|shorter|thinner|slimmer|skinnier|fatter|bald|blonde|muscular|fit|angry|surprised|wink|look at the camera|face the camera|jump|wave|dance|stand|sit)\b/, 'person'],
  [/\b(?:open|close) (?:his|her|their|my|the) eyes\b|\b(?:whiten|whiter|fix) (?:the |his |her |my )?teeth\b|\bface ?swap\b|\bswap (?:the )?faces\b|\b(?:de-?age|age) (?:him|her|me|them)\b|\b(?:change|fix|dye|style) (?:his|her|their|my|the) (?:face|hair|hair color|eye color|eyes|expression|outfit|clothes|shirt|dress|jacket|hat|shoes|smile|nose|lips|pose)\b|\b(?:reshape|liposuction)\b/, 'person'],
  [/\b(?:expand|extend|outpaint|uncrop|widen the (?:photo|frame|view)|fill in the (?:edges|corners)|show more of|zoom out and fill|generative fill)\b/, 'expand'],
  [/\b(?:make|turn|change|paint|dye|recolou?r)(?: the| his| her| my| their) (?!background|sky|photo|image|whole|colors?|it\b|everything)(\w+)(?: \w+)? (?:to |into |a )?(?:light blue|sky blue|white|black|gray|red|green|blue|yellow|orange|purple|violet|pink|magenta|cyan|teal|brown|beige|navy|gold|golden|silver)\b/, 'recolor-object'],
];

const OTHER_TOOL_PATTERNS: Array<[RegExp, OtherTool]> = [
  [/\b(?:remove|reduce|less|fix|clean(?: up)?|get rid of|no more)\b(?: the| all| some)? (?:noise|grain|graininess|jpeg artifacts?|compression artifacts?|artifacts?|blockiness|pixelation|blur(?:riness)?|motion blur)\b|\b(?:denoise|de-?noise|de-?blur|unblur|deblock|restore|repair|fix (?:the )?(?:blurry|noisy|grainy|pixelated) (?:photo|image))\b|\btoo (?:noisy|grainy|pixelated)\b/, 'fal-image-restore'],
  [/\b(?:upscale|increase (?:the )?resolution|higher resolution|more resolution|hi-?res|high[- ]res(?:olution)?|super ?resolution|[48]k|ultra hd|full hd|hd|more pixels)\b/, 'fal-upscaler'],
  [/\b(?:animate|animation|make it move|moving|video|gif|cinemagraph)\b/, 'fal-image-to-video'],
];

export interface BeyondLocal {
  generative?: GenerativeKind;
  otherTool?: OtherTool;
}

const NOT_AN_OBJECT = /^(?:a|an|the|some|more|bit|little|few|lot|of|it|this|that|to|in|on|and|please|just|\|)$/;

function objectWords(phrase: string): string[] {
  return phrase.split(/\s+/).filter((w) => w && !NOT_AN_OBJECT.test(w));
}

/** What a piece of a clause (the words no local rule took) asks for that the local editor does not do, if anything. */
export function beyondLocal(text: string): BeyondLocal | null {
  for (const [re, tool] of OTHER_TOOL_PATTERNS) if (re.test(text)) return { otherTool: tool };
  const replace = GENERATIVE_PATTERNS[0]!;
  if (replace[0].test(text)) return { generative: replace[1] };
  const remove = new RegExp(`\\b(?:remove|erase|delete|get rid of|take (?:out|away)|clean up|eliminate|edit out|photoshop out|clone out|hide|cut)\\b ${ARTICLE}(\\w+(?: \\w+){0,4})`).exec(text);
  if (remove && objectWords(remove[1]!).length && !LOCAL_REMOVE.test(remove[1]!)) return { generative: 'remove-object' };
  const add = new RegExp(`\\b(?:add|insert|put|place|include|draw|paint in|give (?:it|him|her|them|me)|stick|drop in|bring in|with)\\b(?: in| on)? ${ARTICLE}(?:more |lots of |few |some more |a few )?(\\w+(?: \\w+){0,3})`).exec(text);
  if (add && objectWords(add[1]!).length && !LOCAL_ADD.test(add[1]!) && (add[0].startsWith('with') ? GENERATIVE_NOUNS.test(add[1]!) : true)) return { generative: 'add-object' };
  for (const [re, kind] of GENERATIVE_PATTERNS) if (re.test(text)) return { generative: kind };
  if (GENERATIVE_NOUNS.test(text)) return { generative: 'add-object' };
  return null;
}

/** What this server can do instead, by kind of generative request. */
export const INSTEAD: Record<GenerativeKind, string[]> = {
  'remove-object': ["'blur the background'", "'remove the background'", "'crop tighter'"],
  'add-object': ["'add text \"Hello\"'", "'add a vignette'", "'dreamy glow'"],
  scene: ["'cooler'", "'moody'", "'cinematic'"],
  style: ["'painting'", "'pencil sketch'", "'vintage'"],
  person: ["'brighten the face'", "'blur the background'", "'smooth skin'"],
  replace: ["'remove the background'", "'white background'", "'make the sky more dramatic'"],
  expand: ["'crop to 16:9'", "'straighten'", "'center the subject'"],
  'recolor-object': ["'tint blue'", "'warmer'", "'black and white except the subject'"],
};

export const OTHER_TOOL_ADVICE: Record<OtherTool, string> = {
  'fal-image-restore': 'Image Restore removes noise, blur and compression damage: open it from the tools.',
  'fal-upscaler': 'Image Upscaler raises the resolution with an AI model: open it from the tools.',
  'fal-image-to-video': 'Image to Video turns a picture into a moving clip: open it from the tools.',
};
