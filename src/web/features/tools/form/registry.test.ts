import { describe, expect, it } from 'vitest';
import { webTools } from './registry';

/** The tool folders as the web is built with them (the registry finds their cards the same way). */
const folders = Object.keys(import.meta.glob('../../../../tools/*/info.ts')).map((p) => p.split('/').at(-2));

describe('the web tool registry', () => {
  it('finds every tool folder by its card, under its folder name, in the grid order the cards give', () => {
    expect(webTools().map((t) => t.info.endpoint)).toEqual(['fal-upscaler', 'fal-image-editor', 'fal-image-restore', 'fal-image-to-video', 'fal-video-upscaler']);
    expect(webTools().map((t) => t.info.endpoint).sort()).toEqual(folders.sort());
  });

  it('no two cards claim one place in the grid or one address', () => {
    const places = webTools().map((t) => t.place);
    const slugs = webTools().map((t) => t.slug);
    expect(new Set(places).size).toBe(places.length);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it("a card loads its own tool's form and web part", async () => {
    for (const tool of webTools()) {
      const { form, web } = await tool.load();
      expect(form.endpoint).toBe(tool.info.endpoint);
      expect(web.contract.body).toBeDefined();
    }
  });
});
