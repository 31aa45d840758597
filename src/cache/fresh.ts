/**
 * Fresh reads: `@fresh` on a lookup field (a root field, a link, `node`/`nodes`) makes the lookups
 * that field makes skip the cross-request cache and go to the upstream; the fresh value then
 * replaces the cached one. Within the operation the lookup is still made once (however many fields
 * ask for it, fresh or not), and it is counted by the cost budget and the rate limits like any call.
 *
 * A directive rather than a header or an argument: it names the one lookup to refresh, in the
 * document (so trusted documents can allow or forbid it), without adding an argument to every field.
 *
 * Resolvers start their lookups synchronously, so the directive is in effect exactly while the
 * field's resolver runs: the loader asks `insideFresh` when a lookup is requested.
 */
import {
  DirectiveLocation,
  GraphQLDirective,
  GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLSchema,
  isObjectType,
  type ValidationRule,
} from 'graphql';

export const FRESH = 'fresh';

export const FreshDirective = new GraphQLDirective({
  name: FRESH,
  description:
    'Bypass the cross-request cache for the lookup this field makes (a root lookup, a link, or node/nodes): it goes to the upstream and refreshes the cache. Still made once per operation and counted by the cost budget and rate limits. Allowed only on fields that make a lookup.',
  locations: [DirectiveLocation.FIELD],
});

const id = (action: string, key: string) => `${action}\u0000${key}`;

/** One operation's fresh reads (kept on the operation, src/operation/operation.ts). */
export class FreshReads {
  /** > 0 while a field marked @fresh is resolving. */
  private depth = 0;
  /** A @fresh field has resolved: from then on dispatched lookups are remembered. */
  private active = false;
  /** `action\0key` of lookups this operation wants fresh. */
  private readonly wanted = new Set<string>();
  /** `action\0key` of lookups this operation has sent through the cache (not fresh). */
  private readonly dispatched = new Set<string>();

  /**
   * Called when a lookup is requested. Inside a @fresh field it marks the lookup fresh and returns
   * true when the operation already sent it through the cache (the caller then clears its loader
   * entry, so the fresh read is made; once per operation).
   */
  request(action: string, key: string): boolean {
    if (this.depth === 0) return false;
    const k = id(action, key);
    if (this.wanted.has(k)) return false;
    this.wanted.add(k);
    return this.dispatched.has(k);
  }

  /** Called when a lookup is dispatched: whether it is fresh (and, if not, that it went through the cache). */
  dispatch(action: string, key: string): boolean {
    if (!this.active) return false;
    const k = id(action, key);
    if (this.wanted.has(k)) return true;
    this.dispatched.add(k);
    return false;
  }

  /**
   * Makes a lookup fresh for the whole operation before it runs, wherever it is requested: a live poll's call
   * (src/operation/live.ts) is an operation's execution with the polled lookups fresh.
   */
  force(action: string, key: string): void {
    this.active = true;
    this.wanted.add(id(action, key));
  }

  /** Runs a @fresh field's resolver: the lookups it requests are fresh. */
  within<T>(resolve: () => T): T {
    this.active = true;
    this.depth += 1;
    try {
      return resolve();
    } finally {
      this.depth -= 1;
    }
  }
}

/** Whether a field node carries @fresh. */
function marked(info: {
  fieldNodes: ReadonlyArray<{ directives?: ReadonlyArray<{ name: { value: string } }> }>;
}): boolean {
  return info.fieldNodes.some((node) => node.directives?.some((directive) => directive.name.value === FRESH) ?? false);
}

/** Whether a field makes a lookup: a root field of Query, or a link (cost in its extensions). */
function makesLookup(parentIsQuery: boolean, extensions: Record<string, unknown> | null | undefined): boolean {
  return parentIsQuery || (extensions !== null && extensions !== undefined && 'cost' in extensions);
}

/** Wraps every lookup field's resolver so that @fresh is in effect while it runs. */
export function withFreshReads(schema: GraphQLSchema): GraphQLSchema {
  const query = schema.getQueryType();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!makesLookup(type === query, field.extensions) || !field.resolve) continue;
      const resolve = field.resolve as GraphQLFieldResolver<unknown, { operation: { fresh: FreshReads } }>;
      field.resolve = (source, args, context, info) => {
        if (!marked(info)) return resolve(source, args, context, info);
        return context.operation.fresh.within(() => resolve(source, args, context, info));
      };
    }
  }
  return schema;
}

/** A validation rule: @fresh only where a lookup is made, so a misplaced one is an error, not a silent no-op. */
export const freshOnLookupFields: ValidationRule = (context) => ({
  Field(node) {
    if (!node.directives?.some((directive) => directive.name.value === FRESH)) return;
    const parent = context.getParentType();
    const field = context.getFieldDef();
    if (!parent || !field) return;
    if (!makesLookup(parent === context.getSchema().getQueryType() && !field.name.startsWith('__'), field.extensions)) {
      context.reportError(
        new GraphQLError(
          `@fresh applies to fields that make a lookup (root fields, links, node/nodes); ${parent.name}.${field.name} reads data already fetched`,
          {
            nodes: node,
            extensions: { code: 'BAD_USER_INPUT' },
          },
        ),
      );
    }
  },
});
