/**
 * SQL for lists paged by (created_at, id), newest first (the cursor codec's
 * createdKey). The key is whole microseconds since the epoch, as text: exact
 * through JSON, where a JS Date would round to milliseconds.
 */

/** The first element of a row's key, selected beside the row. */
export const createdUsSql = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;

/** The row comes after the key given as parameters $usParam (microseconds) and $idParam (uuid). */
export const beforeCreatedSql = (createdColumn: string, idColumn: string, usParam: number, idParam: number) =>
  `(${createdColumn}, ${idColumn}) < (timestamptz 'epoch' + $${usParam}::bigint * interval '1 microsecond', $${idParam}::uuid)`;
