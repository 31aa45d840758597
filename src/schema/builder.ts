import SchemaBuilder from '@pothos/core';
import { DateResolver, DateTimeResolver, JSONResolver, SafeIntResolver, URLResolver } from 'graphql-scalars';
import type { GatewayContext } from '../context.js';

/** The Pothos builder, its scalars and the Context type. Types live with their actions. */
export const builder = new SchemaBuilder<{
  Context: GatewayContext;
  DefaultFieldNullability: false;
  Scalars: {
    Date: { Input: string; Output: string };
    DateTime: { Input: Date; Output: string };
    JSON: { Input: unknown; Output: unknown };
    SafeInt: { Input: number; Output: number };
    URL: { Input: URL; Output: string };
  };
}>({ defaultFieldNullability: false });

builder.addScalarType('Date', DateResolver);
builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('JSON', JSONResolver);
builder.addScalarType('SafeInt', SafeIntResolver);
builder.addScalarType('URL', URLResolver);

builder.queryType({
  description: 'Lookups over the Data Lookup Action Service. Each root field is one upstream action; it is null, with a coded error, when that lookup fails, so one failure never erases the rest of a response.',
});
