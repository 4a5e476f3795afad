/**
 * Runs the plain-language steps the command language does not have (looks,
 * framing, region edits). The masks are made once per run and reused while
 * the picture keeps its geometry.
 */
import type { LanguageOp, RegionName } from '../../../../shared/edit-language/steps.js';
import { centerSubject, straighten } from './framing.js';
import { applyLook, grain, vignette } from './looks.js';
import { editRegion } from './region-edits.js';
import { invertMask, type Mask, type Rgba } from './rgba.js';
import { faceMask, skyMask, subjectMask } from './segmentation.js';

export class MaskCache {
  private masks = new Map<string, Mask>();
  private subject: Mask | null = null;
  private size = '';

  /** The picture's geometry changed (crop, rotate, resize...): the masks no longer fit. */
  invalidate(): void {
    this.masks.clear();
    this.subject = null;
  }

  private async subjectOf(img: Rgba): Promise<Mask> {
    this.check(img);
    this.subject ??= await subjectMask(img);
    return this.subject;
  }

  private check(img: Rgba): void {
    const size = `${img.width}x${img.height}`;
    if (size !== this.size) {
      this.invalidate();
      this.size = size;
    }
  }

  async region(img: Rgba, name: RegionName): Promise<Mask> {
    this.check(img);
    const known = this.masks.get(name);
    if (known) return known;
    let m: Mask;
    if (name === 'subject') m = await this.subjectOf(img);
    else if (name === 'background') m = invertMask(await this.subjectOf(img));
    else if (name === 'sky') m = await skyMask(img, await this.subjectOf(img));
    else m = await faceMask(img, await this.subjectOf(img));
    this.masks.set(name, m);
    return m;
  }

  async subjectMask(img: Rgba): Promise<Mask> {
    return this.subjectOf(img);
  }
}

/** One step; `masks` is shared by the steps of one run. */
export async function applyLanguageOp(img: Rgba, op: LanguageOp, masks: MaskCache): Promise<Rgba> {
  switch (op.type) {
    case 'look':
      return applyLook(img, op.look, op.strength);
    case 'vignette':
      return vignette(img, op.strength);
    case 'grain':
      return grain(img, op.strength);
    case 'straighten': {
      const out = (await straighten(img, op.degrees)).img;
      if (out !== img) masks.invalidate();
      return out;
    }
    case 'center-subject': {
      const out = await centerSubject(img, await masks.subjectMask(img));
      if (out !== img) masks.invalidate();
      return out;
    }
    case 'region':
      return editRegion(img, await masks.region(img, op.region), op.action, op.strength, op.color);
  }
}
