/**
 * The editor's reading of plain language: what each kind of request becomes,
 * the refusals (generative, another tool, not understood) with what to do
 * instead, and hostile input. The full set of 150+ requests is bench/editor.
 */
import { describe, expect, it } from 'vitest';
import { closestCapabilities, cloudInterpretation, interpretEdit } from '../src/shared/edit-language/interpret.js';
import { correctWord, normalizeRequest } from '../src/shared/edit-language/normalize.js';

const summary = (p: string) => {
  const r = interpretEdit(p);
  expect(r.status, `${p}: ${r.message}`).toBe('ready');
  return r.summary;
};

describe('plain-language reading', () => {
  it.each([
    // the refused third
    ['Make it look like an old photograph', 'old photo look'],
    ['darker and moodier', 'brightness -20%, moody look'],
    ['turn it into a pencil sketch', 'pencil sketch'],
    ['add a vignette', 'vignette'],
    ['straighten the horizon', 'straighten (level the horizon)'],
    ['make it 16:9', 'crop 16:9'],
    ['blur the background', 'blur the background'],
    ['remove the background', 'remove the background (transparent PNG)'],
    ['make the sky more dramatic', 'more dramatic sky'],
    ['make it look like a painting', 'painting look'],
    ['black and white except the subject', 'black and white except the subject'],
    ['brighten the face', 'brighten the the face'.replace('the the', 'the')],
    // several requests, amounts in words, politeness, order
    ['please make it a bit brighter, add a vignette and crop to 16:9', 'brightness +10%, vignette, crop 16:9'],
    ['twice as bright', 'brightness +100%'],
    ['much darker', 'brightness -40%'],
    ['brighter, but just a touch', 'brightness +10%'],
    ['could you warm it up a little? thanks!', 'warmth +7.5%'],
    ['portrait for stories', 'crop 9:16'],
    ['center the subject', 'center the subject'],
    ['blur and darken the background', 'blur the background, darken the background'],
    // typos, lower case, emoji
    ['blurr the backround pls', 'blur the background'],
    ['vintge look', 'vintage look'],
    ['make it pop ✨', 'make it pop'],
    ['☀️', 'brightness +20%'],
    // the command language still works
    ['rotate 90, make it brighter and crop to square', 'rotate 90°, brightness +20%, crop square'],
    ['add text "Hello, and goodbye" at the top', 'text "Hello, and goodbye" (top)'],
    ['white background', 'white background'],
  ])('%s -> %s', (prompt, expected) => {
    expect(summary(prompt)).toBe(expected);
  });

  it('marks the steps that need the segmentation model', () => {
    const r = interpretEdit('blur the background and add a vignette');
    expect(r.steps.map((s) => [s.label, s.needs_mask])).toEqual([
      ['blur the background', true],
      ['vignette', false],
    ]);
  });

  it('keeps quoted overlay text exactly as typed (no typo fixes, no rules inside it)', () => {
    const r = interpretEdit('add text "make it pop, blurr" at the bottom');
    expect(r.steps).toHaveLength(1);
    expect(r.steps[0]!.op).toMatchObject({ type: 'text', text: 'make it pop, blurr' });
  });
});

describe('refusals before any charge', () => {
  it.each(['remove the person on the left', 'add fireworks', 'make it winter', 'replace the sky with a sunset', 'turn me into an anime character', 'make her smile'])(
    '%s needs a generative model: says what the server can do instead and that the cloud AI does it',
    (prompt) => {
      const r = interpretEdit(prompt);
      expect(r.status).toBe('needs_generative');
      expect(r.needs_generative).toHaveLength(1);
      expect(r.suggestions.length).toBeGreaterThan(0);
      expect(r.message).toMatch(/needs a generative AI model/);
      expect(r.message).toMatch(/nothing was charged/);
      expect(r.message).toMatch(/cloud AI editor configured/);
    },
  );

  it('a request with a generative part is refused whole, naming what it did understand', () => {
    const r = interpretEdit('make it brighter and add a rainbow');
    expect(r.status).toBe('needs_generative');
    expect(r.message).toMatch(/It understood: brightness \+20%/);
  });

  it('an unknown request names the closest things the editor can do', () => {
    const r = interpretEdit('make it look like a potato');
    expect(r.status).toBe('not_understood');
    expect(r.message).toMatch(/^I couldn't understand "make it look like a potato", so nothing was charged\. The closest things this editor can do: '/);
    expect(closestCapabilities('more sunshine please')[0]).toBe("'make it brighter'");
    expect(closestCapabilities('the sky is boring')).toContain("'make the sky more dramatic'");
  });

  it('points at the tool that does it', () => {
    expect(interpretEdit('remove the noise').message).toMatch(/Image Restore/);
    expect(interpretEdit('increase the resolution').message).toMatch(/Image Upscaler/);
  });

  it('empty and too long', () => {
    expect(interpretEdit('   ').status).toBe('empty');
    expect(interpretEdit('brighter '.repeat(200)).message).toMatch(/too long/);
  });

  it('the cloud editor takes the words as written', () => {
    expect(cloudInterpretation('add fireworks')).toMatchObject({ status: 'cloud', message: null });
  });
});

describe('normalization', () => {
  it('corrects typos towards known words only', () => {
    expect(correctWord('backround')).toBe('background');
    expect(correctWord('brigther')).toBe('brighter');
    expect(correctWord('wram')).toBe('warm');
    expect(correctWord('park')).toBe('park');
    expect(correctWord('potato')).toBe('potato');
  });

  it('spells out numbers, contractions and black-and-white', () => {
    expect(normalizeRequest("It's TWENTY percent too dark, make it B&W")).toBe('it is 20% too dark, make it grayscale');
  });
});

describe('hostile input', () => {
  it('stays fast (no catastrophic backtracking) and never throws', () => {
    const evil = [
      'a'.repeat(1000),
      'blur the '.repeat(110),
      'make the sky more '.repeat(55),
      'add a '.repeat(160),
      '16:'.repeat(300),
      '"'.repeat(1000),
      '\u0001\u0002'.repeat(400),
      '🔥'.repeat(400),
      'remove the '.repeat(90),
      'very '.repeat(199),
    ];
    for (const p of evil) {
      const t = performance.now();
      interpretEdit(p);
      expect(performance.now() - t).toBeLessThan(500);
    }
  });
});
