// graphql-jit, loaded only after its memoized helpers are made to let go of documents (./jit-memo.ts).
import './jit-memo.js';

export { useGraphQlJit } from '@envelop/graphql-jit';
