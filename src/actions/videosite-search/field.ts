import { builder } from '../../schema/builder.js';
import { requireText } from '../validate.js';
import { loadVideoSearch, videositeSearchAction } from './load.js';
import { VideositeSearch } from './types.js';

builder.queryField(videositeSearchAction.rootField, (t) =>
  t.field({
    type: VideositeSearch,
    description:
      'Video search on the video-sharing site (upstream action run_videosite_search): videos, shorts shelves and suggested searches. One upstream call per distinct query per operation.',
    args: {
      query: t.arg.string({
        required: true,
        description: 'Search terms, 1 to 500 characters; surrounding and repeated white space is ignored.',
      }),
    },
    resolve: (_root, args, ctx) => loadVideoSearch(ctx, requireText('query', args.query, 500).replace(/\s+/g, ' ')),
  }),
);
