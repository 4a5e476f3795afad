import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../core/errors.js';
import { ProviderError } from '../../providers/ai/ai-provider.js';
import type { Library } from '../library/create-library.js';
import type { ToolMediaPort } from './tool-media.js';
import { sourceMessages } from '../../../shared/limits.messages.js';

/** Tool runs read inputs from, and save results to, the media library. */
export function libraryMediaPort(library: Library): ToolMediaPort {
  return {
    async resolveInput(userId, ref, kind, dir, jobId) {
      let input;
      try {
        const staged = jobId && library.sources.isRemoteSource(ref) ? await library.sources.readStagedSource(userId, jobId, dir) : null;
        input = staged ?? (await library.sources.readToLocalFile(userId, ref, dir));
      } catch (err) {
        // A bad input will not get better on a retry: fail the run (refunded) with the reason.
        if (err instanceof AppError) throw new ProviderError(err.message, err.code === 'unavailable');
        throw err;
      }
      if (input.kind !== kind) {
        throw new ProviderError(sourceMessages.wrongKind(kind));
      }
      return {
        media: { path: input.path, contentType: input.contentType },
        originalUrl: input.item?.url ?? ref,
        itemId: input.item?.id ?? null,
      };
    },

    checkSource: (userId, ref, kind) => library.sources.checkSource(userId, ref, kind),

    isRemoteSource: (ref) => library.sources.isRemoteSource(ref),

    async stageSource(userId, jobId, ref, kind) {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), `source-${jobId.slice(0, 8)}-`));
      try {
        const got = await library.sources.stageRemoteSource(userId, jobId, ref, dir);
        if (got.kind !== kind) throw new ProviderError(sourceMessages.wrongKind(kind));
      } catch (err) {
        if (err instanceof AppError) throw new ProviderError(err.message, err.code === 'unavailable');
        throw err;
      } finally {
        await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
      }
    },

    async discardStaged(userId, jobId) {
      await library.sources.discardStagedSource(userId, jobId);
    },

    async saveResult(input) {
      const item = await library.results.saveGeneratedItem({
        userId: input.userId,
        jobId: input.jobId,
        kind: input.kind,
        localPath: input.output.path,
        contentType: input.output.contentType,
        originalName: input.originalName,
        generationType: input.generationType,
        originalImageUrl: input.originalImageUrl,
        durationSeconds: input.output.durationSeconds ?? null,
        prompt: input.prompt,
        sourceItemId: input.sourceItemId ?? null,
      });
      return { itemId: item.id };
    },

    async discardResult(userId, itemId) {
      await library.queries.delete(userId, itemId);
    },

    async itemUrl(userId, itemId) {
      return (await library.queries.get(userId, itemId)).url ?? null;
    },

    async createPending({ userId, jobId, originalName, generationType, prompt }) {
      await library.results.createPendingItem({ userId, jobId, originalName, generationType, prompt });
    },

    async reattachPending(userId, itemId, jobId) {
      await library.results.reassignPendingItem(userId, itemId, jobId);
    },

    async failPending(userId, jobId, error) {
      await library.results.failPendingItem({ userId, jobId, error });
    },
  };
}
