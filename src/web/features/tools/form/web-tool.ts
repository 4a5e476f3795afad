import type { ComponentType } from 'react';
import type { ToolInfo } from '../../../../tools/tool-info.js';
import type { ToolForm } from '../../../../shared/tool-form.js';
import type { Accent } from '../../../components/IconTile';
import type { ToolWebPart } from './web-part';

/**
 * A tool as the web's registry holds it (decision 040): what the dashboard grid needs at once (small:
 * the dashboard's first load carries it); the form and the web part (its body and answer schemas,
 * which bring zod, and its own pieces) load with its view.
 */
export interface WebTool<E extends string = string> {
  info: ToolInfo<E>;
  /** Its place in the dashboard grid (1 is first). */
  place: number;
  /** The path segment under /dashboard (the address people see and share; the view id is the endpoint). */
  slug: string;
  icon: ComponentType<{ className?: string }>;
  accent: Accent;
  load: () => Promise<LoadedTool>;
}

export interface LoadedTool {
  form: ToolForm;
  web: ToolWebPart;
}

/**
 * The built-in tools' cards by folder, filled in by each `src/tools/<endpoint>/card.ts`
 * (`declare module` adds its card here), so the endpoints the web is built with are a type
 * (`openView('restroe')` does not compile) while no file lists them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface BuiltInCards {}

/** A built-in tool's endpoint, known when the web is built. */
export type BuiltInTool = { [K in keyof BuiltInCards]: BuiltInCards[K] extends WebTool<infer E> ? E : never }[keyof BuiltInCards];

type Module<T> = Promise<{ default: T }>;

/** A built-in tool's card: its form and web part are loaded, side by side, when its view opens. */
export function toolCard<E extends string>(
  card: Omit<WebTool<E>, 'load'>,
  form: () => Module<ToolForm>,
  web: () => Module<ToolWebPart>,
): WebTool<E> {
  return {
    ...card,
    load: async () => {
      const [f, w] = await Promise.all([form(), web()]);
      return { form: f.default, web: w.default };
    },
  };
}
