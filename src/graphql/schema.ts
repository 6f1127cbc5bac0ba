import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { resolvers } from './resolvers.ts';
import { withArgumentPaths } from './errors.ts';
import { noteResolvedFields } from './projection.ts';

export const SCHEMA_DIR = fileURLToPath(new URL('../../schema/', import.meta.url));

/** The SDL of schema/*.graphql, in file-name order: the schema is written first, code follows it. */
export function loadTypeDefs(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => readFileSync(SCHEMA_DIR + name, 'utf8'));
}

export function buildSchema() {
  const schema = withArgumentPaths(
    makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers, resolverValidationOptions: { requireResolversToMatchSchema: 'error' } }),
  );
  noteResolvedFields(schema, resolvers as Array<Record<string, unknown>>);
  return schema;
}
