import type { ReactNode } from 'react';
import type { FormValues } from '../../../../shared/tool-form.js';
import type { ToolContract } from '../shared/answers';
import type { ToolRun } from '../shared/useToolRun';

/** What a tool's own pieces see of its form. */
export interface WebPartContext {
  values: FormValues;
  /** Changes one value from its current one. */
  update: (key: string, next: (value: unknown) => unknown) => void;
  run: ToolRun<FormValues>;
  /** Runs on this server (or the answer is pending), not on fal. */
  local: boolean;
  running: boolean;
}

/** What a tool's own pieces give the form: drawn slots, one more refusal and the run bar's hint for it. */
export interface WebParts {
  slots?: Record<string, ReactNode>;
  /** Why the run may not start (after the body's own checks), or null. */
  problem?: string | null;
  /** Text under the disabled run button for `problem` (default: the problem itself). */
  hint?: string | null;
  /** Second line of the processing overlay. */
  estimateNote?: string;
}

/**
 * A tool's web part (src/tools/<endpoint>/web.tsx): how it runs (its body and answer schemas and
 * the reading of its answer, with what shows under its result) and the slots its declared form
 * names, drawn from its own hook.
 */
export interface ToolWebPart {
  contract: ToolContract;
  useParts?: (ctx: WebPartContext) => WebParts;
  /** One more refusal of a batch's settings, after the body's own checks (`local`: runs on this server). */
  batchProblem?: (settings: Record<string, unknown>, local: boolean) => string | null;
}
