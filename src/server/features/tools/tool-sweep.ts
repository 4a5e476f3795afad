import type { Db } from '../../db/db.js';
import * as repo from './tools.repo.js';
import { toolErrors } from './tools.messages.js';
import type { ToolSettle } from './tool-settle.service.js';

/** Runs stuck past their deadline (a crashed worker, a lost queue entry): failed and refunded. */
export class ToolSweep {
  constructor(
    private readonly db: Db,
    private readonly settle: Pick<ToolSettle, 'settleFailure'>,
  ) {}

  /** Safe to run anywhere, any number of times: each run ends once. */
  async sweep(graceSeconds = 60): Promise<number> {
    let n = 0;
    for (const { id } of await repo.findOverdueJobs(this.db, graceSeconds)) {
      if (await this.settle.settleFailure(id, 'failed', toolErrors.timedOut, { code: 'overdue' })) n += 1;
    }
    return n;
  }
}
