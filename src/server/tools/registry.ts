import type { Queryable } from '../db/db.js';
import type { AiProvider } from '../providers/ai/ai-provider.js';
import { AppError } from '../core/errors.js';
import type { Tool } from './tool-definition.js';
import { aiProviderSetting } from '../config.js';

export class ToolRegistryError extends Error {}

/**
 * The one list of tools. Routes, the worker, price seeding, OpenAPI, the
 * admin figures and the dashboard all read it; nothing else names a tool.
 */
export class ToolRegistry {
  private readonly byEndpoint = new Map<string, Tool>();

  constructor(readonly list: readonly Tool[]) {
    if (list.length === 0) throw new ToolRegistryError('No tools');
    for (const tool of list) {
      if (this.byEndpoint.has(tool.endpoint)) throw new ToolRegistryError(`Tool ${tool.endpoint} is defined twice`);
      if (!/^[a-z0-9-]+$/.test(tool.endpoint)) throw new ToolRegistryError(`Tool endpoint '${tool.endpoint}' must be lowercase words joined by '-'`);
      this.byEndpoint.set(tool.endpoint, tool);
    }
  }

  /** Every endpoint, for route enums (estimate, batches): never empty, a registry has at least one tool. */
  get endpoints(): [string, ...string[]] {
    return this.list.map((t) => t.endpoint) as [string, ...string[]];
  }

  /** The tools a batch can run, in list order. */
  get batchEndpoints(): string[] {
    return this.list.filter((t) => t.batch).map((t) => t.endpoint);
  }

  find(endpoint: string): Tool | undefined {
    return this.byEndpoint.get(endpoint);
  }

  /** A tool a stored job names; one that is gone is a run we cannot do. */
  get(endpoint: string): Tool {
    const tool = this.byEndpoint.get(endpoint);
    if (!tool) throw new AppError('not_found', `Unknown tool '${endpoint}'`);
    return tool;
  }

  /**
   * Adds the price row of a tool that has none, at its default price;
   * rows admins changed stay as they are. Safe from several processes at once.
   */
  async seedPrices(db: Queryable): Promise<void> {
    for (const { info } of this.list) {
      await db.query(
        `INSERT INTO admin_tool_pricing (tool_name, display_name, description, base_energy_cost)
         VALUES ($1, $2, $3, $4) ON CONFLICT (tool_name) DO NOTHING`,
        [info.pricing, info.price.displayName, info.price.description, info.price.default],
      );
    }
  }

  /**
   * Refuses to start when a tool could take money and never answer: no
   * price row, no provider that can run it, or no response mapping; and when
   * a per-tool provider setting names no tool (a typo would run the tool on
   * the default provider without a word).
   */
  async verify(db: Queryable, providerFor: (endpoint: string) => AiProvider | undefined, providerSettings: readonly string[] = []): Promise<void> {
    const priced = new Set(
      (await db.query<{ tool_name: string }>('SELECT tool_name FROM admin_tool_pricing')).map((r) => r.tool_name),
    );
    const problems: string[] = [];
    for (const tool of this.list) {
      if (!priced.has(tool.info.pricing)) problems.push(`${tool.endpoint}: no price row '${tool.info.pricing}'`);
      let provider: AiProvider | undefined;
      try {
        provider = providerFor(tool.endpoint);
      } catch (err) {
        problems.push(`${tool.endpoint}: no provider (${err instanceof Error ? err.message : String(err)})`);
        continue;
      }
      if (!provider) problems.push(`${tool.endpoint}: no provider`);
      else if (!tool.supports(provider)) problems.push(`${tool.endpoint}: provider '${provider.name}' cannot run it`);
      if (typeof tool.respond !== 'function' || !tool.schemas.response) problems.push(`${tool.endpoint}: no response mapping`);
    }
    const known = new Set(this.list.map((t) => aiProviderSetting(t.endpoint)));
    for (const setting of providerSettings) {
      if (!known.has(setting)) problems.push(`${setting}: names no tool (tools: ${[...known].join(', ')})`);
    }
    if (problems.length) throw new ToolRegistryError(`Tools not ready:\n  ${problems.join('\n  ')}`);
  }
}
