import fs from 'node:fs/promises';
import path from 'node:path';
import type { ToolMediaPort } from '../../src/server/features/tools/tool-media.js';
import { AppError } from '../../src/server/core/errors.js';
import { sourceMessages } from '../../src/shared/limits.messages.js';

/** Tests only: a library stand-in that keeps results in memory, one per job. */
export function createMemoryMedia() {
  const items = new Map<string, { id: string; userId: string; jobId: string; name: string; prompt: string | null; contentType: string }>();
  const byJob = new Map<string, string>();
  const pending = new Map<string, { userId: string; status: string }>();
  let n = 0;
  const media: ToolMediaPort & { items: typeof items; pending: typeof pending } = {
    items,
    pending,
    async resolveInput(_userId, ref, kind, dir) {
      if (ref.includes('missing')) throw new Error('input not found');
      const file = path.join(dir, kind === 'video' ? 'in.mp4' : 'in.png');
      await fs.writeFile(file, 'input');
      return { media: { path: file, contentType: kind === 'video' ? 'video/mp4' : 'image/png' }, originalUrl: ref, itemId: null };
    },
    async checkSource(_userId, ref, kind) {
      // 'gone' stands for a source refused before the charge; 'missing' for one that fails during the run.
      if (ref.includes('gone')) throw new AppError('not_found', sourceMessages.notFound(kind));
      return null;
    },
    async saveResult(input) {
      const existing = byJob.get(input.jobId);
      if (existing) return { itemId: existing };
      const id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
      items.set(id, { id, userId: input.userId, jobId: input.jobId, name: input.originalName, prompt: input.prompt, contentType: input.output.contentType });
      byJob.set(input.jobId, id);
      return { itemId: id };
    },
    async discardResult(_userId, itemId) {
      const item = items.get(itemId);
      if (item) byJob.delete(item.jobId);
      items.delete(itemId);
    },
    async itemUrl(_userId, itemId) {
      return items.has(itemId) ? `http://files.test/${itemId}` : null;
    },
    async createPending({ userId, jobId }) {
      pending.set(jobId, { userId, status: 'pending' });
    },
    async failPending(_userId, jobId) {
      const p = pending.get(jobId);
      if (p) p.status = 'failed';
    },
  };
  return media;
}
