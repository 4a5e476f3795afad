import { z } from 'zod';

/**
 * What a result file should be (issue 26, outputs): its format and quality, and a target size, in
 * pixels or as a print size at a DPI. Shared by the upscaler, restore and the editor, single runs
 * and batches. Absent, a run stores what the tool makes, as before; the price never depends on it.
 */
export const OUTPUT_FORMATS = ['png', 'jpeg', 'webp', 'avif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const FORMAT_LABELS: Record<OutputFormat, string> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP', avif: 'AVIF' };
export const FORMAT_TYPES: Record<OutputFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', avif: 'image/avif' };
/** The quality a format gets when none is chosen (the library's own re-encoding uses the same). */
export const DEFAULT_QUALITY: Record<OutputFormat, number> = { png: 100, jpeg: 90, webp: 90, avif: 60 };

/** The largest side any result may have: WebP's own limit, and far past what a tool makes. */
export const MAX_OUTPUT_SIDE = 16_383;
export const PRINT_UNITS = ['cm', 'in'] as const;
export const DPI_RANGE = { min: 72, max: 1200, default: 300 } as const;

export const outputMessages = {
  format: `Output format must be ${Object.values(FORMAT_LABELS).slice(0, -1).join(', ')} or ${FORMAT_LABELS.avif}`,
  quality: 'Quality must be a whole number from 1 to 100',
  size: `Width and height must be whole numbers from 1 to ${MAX_OUTPUT_SIDE} pixels`,
  print: 'Print size must be a number greater than 0 (at most 500 cm or 200 in)',
  dpi: `DPI must be a whole number from ${DPI_RANGE.min} to ${DPI_RANGE.max}`,
  oneSide: 'Choose one target side: a width or a height, in pixels or as a print size',
  background: 'Background must be a colour like #ffffff',
  transparentJpeg:
    'This result has transparent areas, and JPEG cannot keep them. Choose PNG, WebP or AVIF, or pick a background colour to flatten it on.',
  tooLarge: (tool: string, max: string) => `That size is more than the ${tool} can make from this image (${max} at most). Choose a smaller size.`,
} as const;

const px = z.coerce.number({ message: outputMessages.size }).int({ message: outputMessages.size }).min(1, { message: outputMessages.size }).max(MAX_OUTPUT_SIDE, { message: outputMessages.size });
const printSide = z.coerce.number({ message: outputMessages.print }).positive({ message: outputMessages.print }).max(500, { message: outputMessages.print });

export const outputOptions = z
  .object({
    format: z.enum(OUTPUT_FORMATS, { message: outputMessages.format }).optional().describe('File format of the result; absent: as the tool makes it'),
    quality: z.coerce
      .number({ message: outputMessages.quality })
      .int({ message: outputMessages.quality })
      .min(1, { message: outputMessages.quality })
      .max(100, { message: outputMessages.quality })
      .optional()
      .describe('1-100 for JPEG, WebP and AVIF (defaults 90, 90, 60); PNG is lossless'),
    width: px.optional().describe('Exact width in pixels (the height follows the picture)'),
    height: px.optional().describe('Exact height in pixels (the width follows the picture)'),
    print_width: printSide.optional().describe('Print width in `unit` at `dpi`'),
    print_height: printSide.optional().describe('Print height in `unit` at `dpi`'),
    unit: z.enum(PRINT_UNITS, { message: "Unit must be 'cm' or 'in'" }).optional().describe("Unit of the print size (default 'cm')"),
    dpi: z.coerce
      .number({ message: outputMessages.dpi })
      .int({ message: outputMessages.dpi })
      .min(DPI_RANGE.min, { message: outputMessages.dpi })
      .max(DPI_RANGE.max, { message: outputMessages.dpi })
      .optional()
      .describe('Dots per inch of a print size (default 300); written into the file'),
    background: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, { message: outputMessages.background })
      .optional()
      .describe('Flattens transparency on this colour (needed for JPEG when the result is transparent)'),
  })
  .superRefine((o, ctx) => {
    const sides = [o.width, o.height, o.print_width, o.print_height].filter((v) => v !== undefined);
    if (sides.length > 1) ctx.addIssue({ code: 'custom', message: outputMessages.oneSide });
    if (o.print_width !== undefined || o.print_height !== undefined) {
      const max = (o.unit ?? 'cm') === 'cm' ? 500 : 200;
      if ((o.print_width ?? o.print_height ?? 0) > max) ctx.addIssue({ code: 'custom', message: outputMessages.print });
    }
  })
  .describe('What the result file should be: format, quality and a target size (issue 26)');

export type OutputOptions = z.infer<typeof outputOptions>;

/** The side and pixel count a target asks for (a print size at its DPI), or null for the tool's own size. */
export function targetOf(o: OutputOptions | undefined): { side: 'width' | 'height'; px: number; dpi: number | null } | null {
  if (!o) return null;
  if (o.width !== undefined) return { side: 'width', px: o.width, dpi: o.dpi ?? null };
  if (o.height !== undefined) return { side: 'height', px: o.height, dpi: o.dpi ?? null };
  const print = o.print_width ?? o.print_height;
  if (print === undefined) return null;
  const dpi = o.dpi ?? DPI_RANGE.default;
  const inches = (o.unit ?? 'cm') === 'cm' ? print / 2.54 : print;
  return { side: o.print_width !== undefined ? 'width' : 'height', px: Math.max(1, Math.round(inches * dpi)), dpi };
}

/** True when the options change nothing: the result is stored as the tool made it. */
export function isDefaultOutput(o: OutputOptions | undefined): boolean {
  return !o || (o.format === undefined && targetOf(o) === null && o.background === undefined && o.dpi === undefined);
}

/**
 * The smallest scale on a tool's grid that reaches `needed` (target / source), the grid's lowest
 * when less is needed, or null when even the largest does not reach it (never past the tool's limit).
 */
export function scaleFor(needed: number, grid: { min: number; max: number; step: number }): number | null {
  if (!(needed > 0) || !Number.isFinite(needed)) return null;
  if (needed <= grid.min) return grid.min;
  const steps = Math.ceil((needed - grid.min) / grid.step - 1e-9);
  const scale = Number((grid.min + steps * grid.step).toFixed(4));
  return scale <= grid.max + 1e-9 ? scale : null;
}
