import { z } from 'zod';
import { outputOptions } from '../../shared/output.js';
import { answerLink, requiredRef, requiredText, resultSource, runAnswer } from '../tool-schemas.js';
import { editorMessages } from './info.js';

export const editorBody = z.object({
  image_url: requiredRef(editorMessages.editImage),
  prompt: requiredText(editorMessages.editPrompt),
  enable_safety_checker: z.boolean().default(false),
  output: outputOptions.optional(),
});

export const editorResult = z.object({ ...resultSource, prompt_used: z.string() });

export const editorResponse = z.object({ ...runAnswer, edited_url: answerLink, original_url: z.string(), prompt_used: z.string() });

/** The tool's request body, recorded result and answer, as its definition and the web's form read them. */
export const schemas = { input: editorBody, result: editorResult, response: editorResponse };
