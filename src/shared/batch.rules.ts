// Batch limits and messages without zod: the library's selection bar names the limit, and the schemas
// would bring zod into the first download (decision 032). Which tools batch, their info says.

export const BATCH_MAX_ITEMS = 100;

export const batchMessages = {
  toolRequired: 'Choose a tool for the batch',
  noImages: 'Choose at least one image',
  tooManyImages: `A batch can hold at most ${BATCH_MAX_ITEMS} images`,
  duplicateImages: 'Each image can appear only once in a batch',
  notFound: 'Batch not found',
  nothingToCancel: 'Nothing is waiting to start in this batch',
  nothingToRetry: 'No failed images to retry in this batch',
  nothingToDownload: 'No finished images to download yet',
  /** Shown when the balance covers only part of the batch. */
  partial: (affordable: number, total: number) => `Your balance covers ${affordable} of ${total} images`,
  coversNone: 'Your balance does not cover any image of this batch',
  imageNotFound: 'One of the chosen images is no longer in your library',
  notAnImage: 'A batch runs on images only: remove the videos from the selection',
  imageNotReady: 'One of the chosen images is still being processed',
} as const;
