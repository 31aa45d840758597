import type { Plugin } from 'graphql-yoga';
import { rejection } from './errors.js';

/**
 * A JSON array of operations: BATCHING_DISABLED when `limit` is 0 (the default), else
 * BATCH_LIMIT_EXCEEDED above `limit` operations; both HTTP 400, before any operation is parsed.
 * (Yoga's own check says BAD_REQUEST, and 413 for too many; this one runs first.)
 */
export function useBatchLimit(limit: number): Plugin {
  return {
    onRequestParse() {
      return {
        onRequestParseDone({ requestParserResult }) {
          if (!Array.isArray(requestParserResult)) return;
          if (limit === 0)
            throw rejection(
              'BATCHING_DISABLED',
              'Batched requests (a JSON array of operations) are not accepted here.',
              400,
            );
          if (requestParserResult.length > limit) {
            throw rejection(
              'BATCH_LIMIT_EXCEEDED',
              `A batch may hold at most ${limit} operations; this one has ${requestParserResult.length}.`,
              400,
              {
                extensions: { limit },
              },
            );
          }
        },
      };
    },
  };
}
