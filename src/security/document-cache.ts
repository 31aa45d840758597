// Our own in place of Yoga's parser and validation cache, which keeps 1,024 documents whatever their size, invalid ones too.
import type { DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { CachePart } from '../cache/store.js';

/**
 * What one kept document holds on the heap, estimated from its text: its syntax tree, what graphql-jit
 * compiled for it (keyed by the document, so it goes when the document goes) and the verdicts kept beside
 * it. Measured on graphql 16 and graphql-jit 0.8: a small lookup of 50 characters holds about 23 KB, and
 * every further character of text about 130 bytes; the estimate stays above both.
 */
function documentBytes(text: string): number {
  return BYTES_PER_DOCUMENT + BYTES_PER_CHARACTER * text.length;
}
const BYTES_PER_DOCUMENT = 16 * 1024;
const BYTES_PER_CHARACTER = 640;

export interface DocumentCache {
  plugin: Plugin;
  /** Its bytes (estimated as documentBytes says) and entries, for the cache gauges. */
  parts(): CachePart[];
}

/**
 * Parsed documents kept by their text, bounded in bytes (DOCUMENT_CACHE_MB): a repeat of a document skips
 * parsing, validation and (through graphql-jit's own cache by document) compilation. Only documents that
 * passed validation are kept; a document that failed to parse or validate is dropped with its request,
 * so invalid documents cost their CPU each time but never memory. Arguments written into the text make
 * each document distinct: they evict older ones once the bound is full, as their variables' form would not.
 */
export function createDocumentCache(maxBytes: number): DocumentCache {
  const documents = new LRUCache<string, DocumentNode>({
    maxSize: Math.max(1, maxBytes),
    sizeCalculation: (_document, text) => documentBytes(text),
  });
  // Held weakly: a document not yet (or never) kept goes with its request.
  const textOf = new WeakMap<DocumentNode, string>();
  const valid = new WeakSet<DocumentNode>();
  const keep = maxBytes > 0;
  return {
    plugin: {
      onParse({ params, setParsedDocument }) {
        if (!keep) return;
        const text = params.source.toString();
        const known = documents.get(text);
        if (known) {
          setParsedDocument(known);
          return;
        }
        return ({ result }) => {
          if (result && !(result instanceof Error)) textOf.set(result as DocumentNode, text);
        };
      },
      onValidate({ params: { documentAST }, setResult }) {
        const document = documentAST as DocumentNode;
        if (valid.has(document)) {
          setResult([]);
          return;
        }
        return ({ valid: passed }) => {
          const text = textOf.get(document);
          // A document larger than the whole bound is not kept (LRUCache refuses it).
          if (!passed || text === undefined) return;
          valid.add(document);
          documents.set(text, document);
        };
      },
    },
    parts: () => [{ part: 'documents', bytes: documents.calculatedSize, entries: documents.size }],
  };
}
