import { builder } from '../../schema/builder.js';
import { badInput } from '../../kernel/errors.js';
import { requireText } from '../validate.js';
import { loadPosts, microblogPostsAction } from './load.js';
import { MicroblogPost } from './types.js';

builder.queryField(microblogPostsAction.rootField, (t) =>
  t.field({
    type: [MicroblogPost],
    description:
      'Microblog posts matching a search (upstream action search_microblog_posts). The gateway asks the upstream for the smallest page it allows (1, 5, 10, 25, 50 or 100) that covers `first`, and returns at most `first` posts.',
    args: {
      query: t.arg.string({ required: true, description: 'Search terms, 1 to 500 characters.' }),
      first: t.arg.int({
        required: true,
        defaultValue: 10,
        // Read by the MCP tools' input schemas.
        extensions: { jsonSchema: { minimum: 1, maximum: 100 } },
        description: 'How many posts to return, 1 to 100. Default 10.',
      }),
    },
    resolve: (_root, args, ctx) => {
      const query = requireText('query', args.query, 500).replace(/\s+/g, ' ');
      if (args.first < 1 || args.first > 100) throw badInput('"first" must be from 1 to 100', { argument: 'first' });
      return loadPosts(ctx, query, args.first);
    },
  }),
);
