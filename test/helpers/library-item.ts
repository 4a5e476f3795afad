import type { LibraryItemDto } from '../../src/shared/library.schema.js';

/** The id of made-up library item number n. */
export const madeUpItemId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * A library item as the API describes one, made up for a test that stands in for the API: number
 * n (a higher n is a minute older), a ready uploaded 1x1 PNG without links; `extra` sets the rest.
 */
export function madeUpLibraryItem(n: number, extra: Partial<LibraryItemDto> = {}): LibraryItemDto {
  const id = madeUpItemId(n);
  return {
    id,
    user_id: '00000000-0000-4000-8000-000000000001',
    filename: `${id}.png`,
    original_name: `p${n}.png`,
    file_size: 1,
    content_type: 'image/png',
    storage_path: `u/${id}.png`,
    is_generated: false,
    generation_type: null,
    original_image_url: null,
    duration_seconds: null,
    created_at: new Date(Date.UTC(2026, 0, 1) - n * 60_000).toISOString(),
    kind: 'image',
    width: 1,
    height: 1,
    status: 'ready',
    job_id: null,
    batch_id: null,
    source_item_id: null,
    prompt: null,
    error: null,
    ...extra,
  };
}
