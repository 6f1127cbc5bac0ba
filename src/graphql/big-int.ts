import { GraphQLScalarType, type GraphQLScalarTypeConfig } from 'graphql';
import { BigIntResolver } from 'graphql-scalars';

const isCanonicalInteger = /^-?(0|[1-9][0-9]*)$/;

/** The whole number a value beyond Number's safe range stands for; undefined for anything else (graphql-scalars judges it). */
function unsafeInteger(value: unknown): bigint | undefined {
  const big =
    typeof value === 'bigint'
      ? value
      : typeof value === 'string' && isCanonicalInteger.test(value)
        ? BigInt(value)
        : typeof value === 'number' && Number.isInteger(value)
          ? BigInt(value)
          : undefined;
  return big !== undefined && (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER)) ? big : undefined;
}

/**
 * graphql-scalars' BigInt, writing a value beyond 2^53 as its decimal string itself: graphql-scalars writes the
 * same string, but first prints a console warning (to stderr, once per process) that would be the one line of a
 * production server's output that is not a JSON log line. Smaller values are JSON numbers, as before.
 */
export const BigIntScalar = new GraphQLScalarType({
  ...(BigIntResolver.toConfig() as GraphQLScalarTypeConfig<unknown, unknown>),
  serialize(value) {
    return unsafeInteger(value)?.toString() ?? BigIntResolver.serialize(value);
  },
});
