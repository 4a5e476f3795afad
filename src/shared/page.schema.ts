import { z } from 'zod';

/**
 * Every list answers one shape: a page of items, newest (or first) first, and
 * an opaque cursor to the next page (null on the last). Pass it back as
 * `?cursor=`; lists that show a count add it beside these two fields.
 */
export const pageSchema = <Item extends z.ZodType>(item: Item) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });

export interface Page<Item> {
  items: Item[];
  next_cursor: string | null;
}

/** A list that shows "the count of all" (the referral lists) answers it beside the page. */
export const countedPageSchema = <Item extends z.ZodType>(item: Item) => pageSchema(item).extend({ total: z.number().int() });

export interface CountedPage<Item> extends Page<Item> {
  total: number;
}
