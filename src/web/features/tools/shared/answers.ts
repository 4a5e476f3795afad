import type { ReactElement } from 'react';
import type { z } from 'zod';
import type { ToolInfo } from '../../../../tools/tool-info.js';

/** One line of a result's details after Model and ENERGY used ('Scale', '2x'). */
export interface ResultDetail {
  label: string;
  value: string;
}

/**
 * What the result screens read of a finished run, whatever the tool: the fields every answer has,
 * and the tool's own fields as its reading names them. Built from the answer its tool's schema
 * accepted, so no screen reads an answer by field name.
 */
export interface ToolResult {
  job_id: string;
  library_item_id: string | null;
  energy_used: number;
  model: string;
  /** The link to the file the run made (null when the server could not sign one; the library item has it). */
  file: string | null;
  /** The picture the run started from, when the answer links it (image to video answers with the video only). */
  source: string | null;
  details: readonly ResultDetail[];
  /** The prompt the run used, when the tool takes one. */
  prompt: string | null;
  /** The tool's own piece under the result (restore's findings). */
  extra: ReactElement | null;
}

/** What a tool's reading gives from its typed answer; the fields every answer has are read for it. */
export type AnswerReading = Pick<ToolResult, 'file'> & Partial<Pick<ToolResult, 'source' | 'details' | 'prompt' | 'extra'>>;

/** The fields every tool answers (src/tools/tool-schemas.ts `runAnswer`). */
interface RunAnswer {
  job_id: string;
  library_item_id: string | null;
  energy_used: number;
  model: string;
}

/**
 * How the web runs a tool (decision 036): the schema its request body is checked with before it is
 * sent, and the reading of its answer, parsed with the tool's own answer schema. A tool's web part
 * (src/tools/<endpoint>/web.tsx) builds it with `toolContract`, so a tool outside the built-in list
 * runs like the others.
 */
export interface ToolContract {
  body: z.ZodType;
  /** The run's answer as the result screens read it, or null when it is not this tool's answer. */
  readAnswer: (data: unknown) => ToolResult | null;
}

/** A tool's contract from its folder's schemas (schemas.ts: its body and answer) and how its answer reads. */
export function toolContract<A extends z.ZodType<RunAnswer>>(schemas: { input: z.ZodType; response: A }, read: (answer: z.output<A>) => AnswerReading): ToolContract {
  return {
    body: schemas.input,
    readAnswer: (data) => {
      const parsed = schemas.response.safeParse(data);
      if (!parsed.success) return null;
      const { job_id, library_item_id, energy_used, model } = parsed.data;
      return { job_id, library_item_id, energy_used, model, source: null, details: [], prompt: null, extra: null, ...read(parsed.data) };
    },
  };
}

/** A tool the run hook can run: what it is (names, texts, time limit) and its contract. */
export interface RunnableTool extends ToolContract {
  info: ToolInfo<string>;
}

export const scaleDetail = (label: string, times: number): ResultDetail => ({ label, value: `${times}x` });
