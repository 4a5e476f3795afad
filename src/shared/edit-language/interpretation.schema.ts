import { z } from 'zod';
import { MAX_PROMPT_CHARS } from '../edit-commands.js';

/** POST /api/tools/fal-image-editor/interpret: the request to read. */
export const editInterpretRequest = z.object({
  prompt: z.string().max(MAX_PROMPT_CHARS, `The edit prompt is too long (at most ${MAX_PROMPT_CHARS} characters).`),
});

/** How the editor read a request: what it will do, or why it will not (nothing is charged either way). */
export const editInterpretation = z
  .object({
    status: z
      .enum(['ready', 'needs_generative', 'other_tool', 'not_understood', 'empty', 'cloud'])
      .describe("'ready': it can run; 'cloud': the cloud AI editor takes the request as written; the others are refused before any charge"),
    summary: z.string().describe("What it will do, e.g. 'brightness +20%, vignette, crop 16:9'"),
    steps: z.array(
      z.object({
        label: z.string(),
        op: z.looseObject({ type: z.string() }).describe('The operation with its settings'),
        needs_mask: z.boolean().describe('Needs to know what is in the picture (runs the segmentation model)'),
      }),
    ),
    not_understood: z.array(z.string()).describe('Parts of the request nothing matched'),
    needs_generative: z.array(z.string()).describe('Parts that need a generative model'),
    suggestions: z.array(z.string()).describe('What the editor can do instead'),
    message: z.string().nullable().describe('The refusal shown before any charge; null when the request can run'),
  });

export type EditInterpretationAnswer = z.infer<typeof editInterpretation>;
