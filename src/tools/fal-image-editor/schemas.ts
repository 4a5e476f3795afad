import { z } from 'zod';
import { outputOptions } from '../../shared/output.js';
import { answerLink, requiredRef, requiredText, resultSource, runAnswer } from '../tool-schemas.js';

export const editorBody = z.object({
  image_url: requiredRef('Please select an image to edit'),
  prompt: requiredText('Please describe what changes you want to make'),
  enable_safety_checker: z.boolean().default(false),
  output: outputOptions.optional(),
});

export const editorResult = z.object({ ...resultSource, prompt_used: z.string() });

export const editorResponse = z.object({ ...runAnswer, edited_url: answerLink, original_url: z.string(), prompt_used: z.string() });

/** The tool's request body, recorded result and answer, as its definition and the web's form read them. */
export const schemas = { input: editorBody, result: editorResult, response: editorResponse };
