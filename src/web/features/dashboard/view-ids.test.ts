import { describe, expect, it } from 'vitest';
import { parseViewPath, viewOfLink, viewPath } from './view-ids';

describe('view ids and addresses', () => {
  it("a tool's view id is its endpoint; its address keeps its short segment", () => {
    expect(viewPath('fal-image-restore')).toBe('/dashboard/restore');
    expect(parseViewPath('/dashboard/restore')).toEqual({ view: 'fal-image-restore' });
    expect(parseViewPath('/dashboard/video-upscaler/x')).toEqual({ view: 'fal-video-upscaler', param: 'x' });
    expect(parseViewPath('/dashboard/fal-image-restore')).toBeUndefined();
  });

  it('older ?view= links still land: by view id, or by the short name a tool had', () => {
    expect(viewOfLink('gallery')).toBe('gallery');
    expect(viewOfLink('fal-upscaler')).toBe('fal-upscaler');
    expect(viewOfLink('restore')).toBe('fal-image-restore');
    expect(viewOfLink('video-upscaler')).toBe('fal-video-upscaler');
    expect(viewOfLink('no-such-view')).toBeUndefined();
  });

  it('a typo in a view id is a type error (the type check runs this file too)', () => {
    // @ts-expect-error 'restroe' names no view
    expect(viewPath('restroe')).toBe('/dashboard/');
  });
});
