import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { Db } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import { createdKey, decodeOptionalCursor, pageOf } from '../../core/cursor.js';
import { previewJpeg, stripImage, stripVideo } from '../../media/strip.js';
import { extensionFor } from '../../media/sniff.js';
import { CACHE_CONTROL, type StorageDriver } from '../../providers/storage/storage.js';
import type { Limiter } from '../limits/limiter.js';
import { assertAllowed } from '../limits/limiter.js';
import type { LibraryItem } from '../library/library-store.js';
import type { LibraryQueries } from '../library/library-queries.service.js';
import { limitMessages } from '../../../shared/limits.messages.js';
import { SHARE_EXPIRY_SECONDS, shareMessages as msg, type ShareExpiry, type ShareLink } from '../../../shared/shares.schema.js';
import type { Page } from '../../../shared/page.schema.js';
import * as repo from './shares.repo.js';

export type SharePart = 'media' | 'before' | 'preview';

export interface SharesOptions {
  publicUrl: string;
  /** Scratch space for the copies being made. */
  tmpDir: string;
  /** Requests (page or file) one link answers a minute, from everyone together; 0: no limit. */
  perLinkPerMinute: number;
  /** Requests for share pages and files one address may make a minute; 0: no limit. */
  perAddressPerMinute: number;
}

/** How long a redirect to a shared file's storage link lives: short, so a revoked or expired link stops soon. */
const FILE_LINK_SECONDS = 300;
/** Links whose copies one sweep removes. */
const SWEEP_BATCH = 200;
/** How often a process adds the views it counted to the database (and once more when it closes). */
export const VIEW_FLUSH_MS = 10_000;

/**
 * Public share links (decision 031). A link serves copies made when it was
 * created, stripped of metadata and stored under keys that name no one; the
 * page and its files answer only while the link is alive.
 */
export class SharesService {
  /** Page views counted in this process and not yet in the database, per link id. */
  private readonly pendingViews = new Map<string, number>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly library: LibraryQueries,
    private readonly storage: StorageDriver,
    private readonly limiter: Limiter,
    private readonly log: Logger,
    private readonly opts: SharesOptions,
  ) {}

  async create(userId: string, body: { item_id: string; pair: boolean; expires_in: ShareExpiry; indexable: boolean }): Promise<ShareLink> {
    const item = await this.library.get(userId, body.item_id);
    if (item.status !== 'ready' || !item.url) throw new AppError('conflict', msg.notReady);
    let before: LibraryItem | null = null;
    if (body.pair) {
      before = await this.library.sourceOf(userId, item.id);
      if (!before || before.status !== 'ready') throw new AppError('conflict', msg.noSource);
      if (item.kind !== 'image' || before.kind !== 'image') throw new AppError('validation', msg.pairNeedsImages);
    }
    const stored: string[] = [];
    try {
      const copies = await this.withWorkDir(async (dir) => {
        const main = await this.copy(item, dir, stored);
        const previewSource = item.kind === 'image' ? main.local : await this.posterOf(item, dir);
        const preview = previewSource ? await this.putPreview(previewSource, dir, stored) : null;
        const b = before ? await this.copy(before, dir, stored) : null;
        return { main, preview, before: b };
      });
      const row = await repo.insertShare(this.db, {
        user_id: userId,
        item_id: item.id,
        before_item_id: before?.id ?? null,
        token: randomBytes(18).toString('base64url'),
        kind: item.kind,
        tool: item.is_generated ? item.generation_type : null,
        title: item.is_generated && item.generation_type ? `Made with ${item.generation_type}` : item.kind === 'video' ? 'A video' : 'A picture',
        media_key: copies.main.key,
        media_type: copies.main.contentType,
        before_key: copies.before?.key ?? null,
        before_type: copies.before?.contentType ?? null,
        poster_key: copies.preview,
        width: copies.main.width ?? item.width,
        height: copies.main.height ?? item.height,
        indexable: body.indexable,
        expiresInSeconds: SHARE_EXPIRY_SECONDS[body.expires_in],
      });
      return this.toDto(row);
    } catch (err) {
      await this.remove(...stored);
      if (err instanceof AppError) throw err;
      this.log.error({ err, userId }, 'shares: could not make the copies');
      throw new AppError('unprocessable', 'This file could not be prepared for sharing');
    }
  }

  async list(userId: string, q: { item?: string; cursor?: string; limit: number }): Promise<Page<ShareLink>> {
    const after = decodeOptionalCursor(q.cursor, createdKey);
    const rows = await repo.listShares(this.db, userId, q.limit + 1, after, q.item);
    const page = pageOf(rows, q.limit, (r) => [r.cursor_us, r.id]);
    return { items: page.rows.map((r) => this.toDto(r)), next_cursor: page.next_cursor };
  }

  /** Turns the link off at once: page and files answer 404 from now on, and its copies are deleted. */
  async revoke(userId: string, id: string): Promise<ShareLink> {
    const row = await repo.revokeShare(this.db, userId, id);
    if (!row) throw new AppError('not_found', msg.notFound);
    await this.removeDeadCopies(row.id);
    return this.toDto({ ...row, media_key: '', before_key: null, poster_key: null });
  }

  /** Before a library item is deleted: its links (as result or as source) end, copies and all. */
  async endLinksOf(userId: string, itemId: string): Promise<void> {
    const rows = await repo.deleteSharesOfItem(this.db, userId, itemId);
    await this.remove(...rows.flatMap((r) => [r.media_key, r.before_key, r.poster_key]));
  }

  /** Deletes the copies of links that expired (or were revoked and not yet cleaned). */
  async sweep(): Promise<number> {
    return this.removeDeadCopies();
  }

  /**
   * A live link by its token, for a public request (counted against the link
   * and the caller's address first; a page view also counts as a view).
   */
  async open(token: string, address: string, countView: boolean): Promise<repo.ShareRow | null> {
    const perLink = { key: `share:link:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}`, limit: this.opts.perLinkPerMinute, windowSeconds: 60 };
    const perAddress = { key: `share:ip:${address}`, limit: this.opts.perAddressPerMinute, windowSeconds: 60 };
    assertAllowed(await this.limiter.take([perAddress, perLink]), limitMessages.shareViews);
    if (!/^[A-Za-z0-9_-]{24}$/.test(token)) return null;
    // Read on every request, never cached: a revoke or an expiry in any process holds at the next request.
    const row = await repo.findAlive(this.db, token);
    if (!row || !row.media_key) return null;
    if (countView) this.pendingViews.set(row.id, (this.pendingViews.get(row.id) ?? 0) + 1);
    return row;
  }

  /**
   * Adds the views counted since the last flush to the database in one statement. A failed flush
   * keeps its counts for the next one; flushes never overlap.
   */
  flushViews(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pendingViews.size === 0) return;
      const counts = [...this.pendingViews];
      this.pendingViews.clear();
      try {
        await repo.addViews(this.db, counts);
      } catch (err) {
        for (const [id, n] of counts) this.pendingViews.set(id, (this.pendingViews.get(id) ?? 0) + n);
        this.log.warn({ err, links: counts.length }, 'shares: could not add the counted views (kept for the next flush)');
      }
    });
    return this.flushing;
  }

  /** Flushes counted views every `ms` until the returned stop is called; stop flushes once more. */
  startViewFlush(ms = VIEW_FLUSH_MS): () => Promise<void> {
    const timer = setInterval(() => void this.flushViews(), ms);
    timer.unref();
    return () => {
      clearInterval(timer);
      return this.flushViews();
    };
  }

  /** A short-lived storage link to one of a live link's files, lasting no longer than the link. */
  async fileUrl(row: repo.ShareRow, part: SharePart): Promise<string | null> {
    const key = part === 'media' ? row.media_key : part === 'before' ? row.before_key : row.poster_key;
    const type = part === 'media' ? row.media_type : part === 'before' ? row.before_type : 'image/jpeg';
    if (!key || !type) return null;
    const left = row.expires_at ? Math.floor((new Date(row.expires_at).getTime() - Date.now()) / 1000) : FILE_LINK_SECONDS;
    if (left <= 0) return null;
    return this.storage.signedUrl(key, { expiresIn: Math.min(FILE_LINK_SECONDS, left), contentType: type });
  }

  pageUrl(token: string): string {
    return `${this.opts.publicUrl}/s/${token}`;
  }

  private toDto(r: repo.ShareRow): ShareLink {
    const expired = !!r.expires_at && new Date(r.expires_at).getTime() <= Date.now();
    return {
      id: r.id,
      item_id: r.item_id,
      before_item_id: r.before_item_id,
      url: this.pageUrl(r.token),
      kind: r.kind,
      title: r.title,
      tool: r.tool,
      indexable: r.indexable,
      // This process's views not flushed yet count too: the owner sees a view at once here, and other processes' within a flush.
      views: Number(r.views) + (this.pendingViews.get(r.id) ?? 0),
      expires_at: r.expires_at ? new Date(r.expires_at).toISOString() : null,
      revoked_at: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
      created_at: new Date(r.created_at).toISOString(),
      status: r.revoked_at ? 'revoked' : expired ? 'expired' : 'active',
    };
  }

  /** A stripped copy of the item's file, stored under a key that names no one. */
  private async copy(item: LibraryItem, dir: string, stored: string[]) {
    const ext = extensionFor(item.content_type);
    const input = path.join(dir, `in-${randomUUID()}.${ext}`);
    const got = await this.storage.get(item.storage_path);
    await pipeline(got.stream, fs.createWriteStream(input));
    const local = path.join(dir, `out-${randomUUID()}.${ext}`);
    let contentType = item.content_type;
    let width: number | null = null;
    let height: number | null = null;
    if (item.kind === 'image') {
      const info = await stripImage(input, item.content_type, local);
      ({ contentType, width, height } = info);
    } else {
      await stripVideo(input, local);
    }
    const key = `shares/${randomBytes(16).toString('hex')}.${extensionFor(contentType)}`;
    stored.push(key);
    const { size } = await fsp.stat(local);
    await this.storage.put(key, fs.createReadStream(local), { contentType, cacheControl: CACHE_CONTROL, contentLength: size });
    return { key, contentType, width, height, local };
  }

  /** A video's poster (our own WebP thumbnail) as a local file, or null without one. */
  private async posterOf(item: LibraryItem, dir: string): Promise<string | null> {
    const key = item.thumbnail_url ? this.storage.keyFromUrl(item.thumbnail_url) : null;
    if (!key) return null;
    const file = path.join(dir, `poster-${randomUUID()}.webp`);
    const got = await this.storage.get(key);
    await pipeline(got.stream, fs.createWriteStream(file));
    return file;
  }

  private async putPreview(source: string, dir: string, stored: string[]): Promise<string> {
    const file = path.join(dir, `preview-${randomUUID()}.jpg`);
    await previewJpeg(source, file);
    const key = `shares/${randomBytes(16).toString('hex')}.jpg`;
    stored.push(key);
    await this.storage.put(key, await fsp.readFile(file), { contentType: 'image/jpeg', cacheControl: CACHE_CONTROL });
    return key;
  }

  private async removeDeadCopies(id?: string): Promise<number> {
    let removed = 0;
    for (;;) {
      const rows = await repo.takeDeadCopies(this.db, SWEEP_BATCH, id);
      await this.remove(...rows.flatMap((r) => [r.media_key, r.before_key, r.poster_key]));
      removed += rows.length;
      if (id || rows.length < SWEEP_BATCH) return removed;
    }
  }

  private async remove(...keys: Array<string | null | undefined>) {
    for (const key of keys) {
      if (!key) continue;
      await this.storage.delete(key).catch((err: unknown) => this.log.warn({ err, key }, 'shares: could not delete a copy'));
    }
  }

  private async withWorkDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
    await fsp.mkdir(this.opts.tmpDir, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(this.opts.tmpDir, 'share-'));
    try {
      return await fn(dir);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }
}
