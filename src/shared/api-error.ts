import { z } from 'zod';

/** Every refusal: the product's words and a stable code (see the error code map). Some add details. */
export const apiError = z.looseObject({
  error: z.string(),
  code: z.string(),
});
