import type { Queryable } from '../db/db.js';
import type { AiProvider } from '../providers/ai/ai-provider.js';
import { AppError } from '../http/errors.js';
import type { Tool } from './tool-definition.js';

export class ToolRegistryError extends Error {}

/**
 * The one list of tools. Routes, the worker, price seeding, OpenAPI, the
 * admin figures and the dashboard all read it; nothing else names a tool.
 */
export class ToolRegistry {
  private readonly byEndpoint = new Map<string, Tool>();

  constructor(readonly list: readonly Tool[]) {
    for (const tool of list) {
      if (this.byEndpoint.has(tool.endpoint)) throw new ToolRegistryError(`Tool ${tool.endpoint} is defined twice`);
      if (!/^[a-z0-9-]+$/.test(tool.endpoint)) throw new ToolRegistryError(`Tool endpoint '${tool.endpoint}' must be lowercase words joined by '-'`);
      this.byEndpoint.set(tool.endpoint, tool);
    }
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
   * price row, no provider that can run it, or no response mapping.
   */
  async verify(db: Queryable, providerFor: (endpoint: string) => AiProvider | undefined): Promise<void> {
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
    if (problems.length) throw new ToolRegistryError(`Tools not ready:\n  ${problems.join('\n  ')}`);
  }
}
