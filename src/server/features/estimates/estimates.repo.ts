import type { Queryable } from '../../db/db.js';

export interface RunTiming {
  /** From the click (job created) to the result: what the user waited, queue included. */
  seconds: number;
  /** The input picture's size when it came from the library, else null. */
  megapixels: number | null;
}

/** The most recent successful runs of a tool on this installation, any user (timings only). */
export function recentTimings(db: Queryable, tool: string, limit: number): Promise<RunTiming[]> {
  return db.query<RunTiming>(
    `SELECT EXTRACT(EPOCH FROM (j.finished_at - j.created_at))::float8 AS seconds,
            (i.width::float8 * i.height::float8 / 1e6) AS megapixels
       FROM tool_jobs j
       LEFT JOIN uploaded_images i
         ON i.id = CASE WHEN j.result->>'original_item_id' ~ '^[0-9a-f-]{36}$' THEN (j.result->>'original_item_id')::uuid END
        AND i.user_id = j.user_id
      WHERE j.tool = $1 AND j.status = 'succeeded' AND j.finished_at IS NOT NULL
        -- A batch item's wait in line behind its own batch says nothing about a single run.
        AND j.batch_id IS NULL
      ORDER BY j.finished_at DESC
      LIMIT $2`,
    [tool, limit],
  );
}
