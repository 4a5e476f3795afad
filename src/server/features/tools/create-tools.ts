import type { Db } from '../../db/db.js';
import type { EnergyService } from '../energy/energy.service.js';
import type { PricingService } from '../pricing/pricing.service.js';
import type { RealtimeHub } from '../../realtime/realtime-hub.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolMediaPort } from './tool-media.js';
import { ToolEvents } from './tool-events.js';
import { ToolRuns } from './tool-runs.service.js';
import { ToolSubmit, type InputCheck } from './tool-submit.service.js';
import { ToolSettle } from './tool-settle.service.js';
import { ToolSweep } from './tool-sweep.js';
import { ToolWork } from './tool-work.service.js';

/** Tool runs as rooms with one job each; a caller names the room it needs (decision 038). */
export interface Tools {
  /** The tools offered: the one list routes, worker and prices read. */
  readonly registry: ToolRegistry;
  /** Where runs read their inputs and leave their results. */
  readonly media: ToolMediaPort;
  /** Validate, check, price, then record + charge + enqueue in one transaction. */
  readonly submit: ToolSubmit;
  /** End a run once: success, or failure/cancel with its refund; then publish. */
  readonly settle: ToolSettle;
  /** Runs stuck past their deadline, failed and refunded. */
  readonly sweep: ToolSweep;
  /** What a worker does to a run it holds, short of ending it. */
  readonly work: ToolWork;
  /** The owner's runs as they stand, and a finished run's answer. */
  readonly runs: ToolRuns;
  /** Job events to the user's screens, and waits for a run's end. */
  readonly events: ToolEvents;
}

export function createTools(deps: {
  db: Db;
  energy: EnergyService;
  pricing: PricingService;
  queue: JobQueue;
  media: ToolMediaPort;
  realtime: RealtimeHub;
  registry: ToolRegistry;
  checkInput?: InputCheck;
  maxOpenRunsPerUser?: number;
}): Tools {
  const { db, energy, pricing, queue, media, realtime, registry } = deps;
  const events = new ToolEvents(db, realtime);
  const runs = new ToolRuns(db, media, registry);
  const submit = new ToolSubmit(db, energy, pricing, queue, media, registry, events, runs, deps.checkInput);
  submit.maxOpenRunsPerUser = deps.maxOpenRunsPerUser ?? 0;
  const settle = new ToolSettle(db, energy, queue, media, registry, events, runs);
  return { registry, media, submit, settle, sweep: new ToolSweep(db, settle), work: new ToolWork(db, events), runs, events };
}
