import type { ApolloServerPlugin } from '@apollo/server';
import type { DocumentNode, GraphQLError, GraphQLSchema, ValidationContext } from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { DEFAULT_PAGE_SIZE } from '../db/pagination.ts';

/**
 * The limits that keep one GraphQL operation from asking for too much, and the one error shape they all
 * refuse with: `extensions.code` names the limit, `limit` is the setting's value and `found` the query's.
 *
 * - QUERY_TOO_DEEP (GRAPHQL_MAX_DEPTH), TOO_MANY_ALIASES (GRAPHQL_MAX_ALIASES), TOO_MANY_DIRECTIVES: counted by
 *   graphql-armor's validation rules, reworded here.
 * - QUERY_TOO_COMPLEX, with `measure`: `objects` (GRAPHQL_MAX_OBJECTS) or `fields` (GRAPHQL_MAX_COST), estimated
 *   before execution from the sizes the operation asks for (`ids`, `first`/`last`), variables included; or
 *   `selections`, when fragments expand to more selections than are worth counting.
 */
export type QueryLimitCode = 'QUERY_TOO_DEEP' | 'TOO_MANY_ALIASES' | 'TOO_MANY_DIRECTIVES' | 'QUERY_TOO_COMPLEX';
/** What QUERY_TOO_COMPLEX counted: objects, field values, or (for fragments spread into each other) selections. */
export type ComplexityMeasure = 'objects' | 'fields' | 'selections';

/**
 * Not a GraphQLError subclass: graphql-js may be loaded twice (ESM and CommonJS) under a test runner, and Apollo
 * wraps any error it does not recognise, keeping `extensions` (and so the code and the 400 status).
 */
export class QueryLimitError extends Error {
  readonly extensions: { code: QueryLimitCode; http: { status: number } };

  constructor(
    message: string,
    readonly code: QueryLimitCode,
    readonly limit: number,
    readonly found: number | undefined,
    readonly measure?: ComplexityMeasure,
  ) {
    super(message);
    this.name = 'QueryLimitError';
    // The status matters where Apollo does not already answer 400: the complexity check runs after validation.
    this.extensions = { code, http: { status: 400 } };
  }

  /** What clients see in `extensions`. */
  get details(): Record<string, unknown> {
    return {
      code: this.code,
      ...(this.measure ? { measure: this.measure } : {}),
      limit: this.limit,
      ...(this.found !== undefined ? { found: this.found } : {}),
    };
  }
}

/** A limit refusal, whether raised directly or wrapped by Apollo (as validation errors are). */
export function queryLimitErrorOf(error: unknown): QueryLimitError | null {
  if (error instanceof QueryLimitError) return error;
  const original = (error as { originalError?: unknown } | null)?.originalError;
  return original instanceof QueryLimitError ? original : null;
}

const count = (n: number) => n.toLocaleString('en-US');

// graphql-armor reports what it found only inside its message ("... exceeded, found 15.").
const foundIn = (error: GraphQLError) => {
  const match = /found (\d+)/.exec(error.message);
  return match ? Number(match[1]) : undefined;
};

/** An onReject handler for one of graphql-armor's rules: our wording and code instead of its "Syntax Error: ...". */
export function armorRejection(code: Exclude<QueryLimitCode, 'QUERY_TOO_COMPLEX'>, limit: number) {
  const describe: Record<typeof code, (found: string) => string> = {
    QUERY_TOO_DEEP: (found) => `Query is too deep: the limit is ${limit} levels${found && `, this one has ${found}`}.`,
    TOO_MANY_ALIASES: (found) => `Query has too many aliases: the limit is ${limit}${found && `, this one has ${found}`}.`,
    TOO_MANY_DIRECTIVES: (found) => `Query has too many directives: the limit is ${limit}${found && `, this one has ${found}`}.`,
  };
  return (context: ValidationContext | null, armorError: GraphQLError) => {
    const found = foundIn(armorError);
    // graphql-js collects whatever is reported; Apollo wraps it as a validation error with this as originalError.
    context?.reportError(new QueryLimitError(describe[code](found === undefined ? '' : count(found)), code, limit, found) as unknown as GraphQLError);
  };
}

/**
 * How many times a field's value repeats under its parent: the ids asked for, or a connection's page
 * (`first`/`last`, the default page size when neither is given). Other lists (an ad set's issues, a user's
 * memberships) are bounded by the data, not by the caller, and count once.
 */
function multiplicity(args: Record<string, unknown>, paged: boolean): number {
  if (Array.isArray(args.ids)) return args.ids.length;
  if (!paged) return 1;
  const size = typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : DEFAULT_PAGE_SIZE;
  return Math.max(0, size);
}

/**
 * One estimator for both measures: `objects` counts every object the answer may hold (a list item, a nested
 * object, a connection), `fields` every field value as well. A connection is one object holding a page of
 * `first` items; `nodes(ids:)` holds one item per id.
 */
function estimator(measure: 'objects' | 'fields', unsized?: Set<string>): ComplexityEstimator {
  return ({ field, node, args, childComplexity }) => {
    // Only fields of object, interface and union types have (and must have) a selection set.
    const composite = node.selectionSet !== undefined;
    const own = composite || measure === 'fields' ? 1 : 0;
    const paged = field.args.some((arg) => arg.name === 'first');
    if (paged && typeof args.first !== 'number' && typeof args.last !== 'number') unsized?.add(field.name);
    if (paged) return own + multiplicity(args, true) * childComplexity;
    return multiplicity(args, false) * (own + childComplexity);
  };
}

export interface ComplexityLimits {
  maxObjects: number;
  maxFields: number;
}

export interface Complexity {
  objects: number;
  fields: number;
  /** The connections counted at the default page because the operation gives them no first/last, for the refusal's advice. */
  unsized?: string[];
}

// Fragments spread into each other can make a small document expand enormously: stop counting past this.
const MAX_EVALUATED_SELECTIONS = 10_000;

/** Both measures of one operation, with its variables (null when the variables do not fit the operation). */
export function estimateComplexity(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown> | undefined,
): Complexity | null {
  const unsized = new Set<string>();
  const measure = (kind: 'objects' | 'fields') =>
    getComplexity({ schema, query: document, operationName, variables, estimators: [estimator(kind, unsized)], maxQueryNodes: MAX_EVALUATED_SELECTIONS });
  try {
    const complexity = { objects: measure('objects'), fields: measure('fields') };
    // The estimator sees a field after the fields under it: outermost first reads as the query does.
    return unsized.size > 0 ? { ...complexity, unsized: [...unsized].reverse() } : complexity;
  } catch (error) {
    if (error instanceof Error && /maximum allowed number of nodes/.test(error.message)) {
      throw new QueryLimitError(
        `Query is too complex: its fragments expand to more than ${count(MAX_EVALUATED_SELECTIONS)} selections.`,
        'QUERY_TOO_COMPLEX',
        MAX_EVALUATED_SELECTIONS,
        undefined,
        'selections',
      );
    }
    // Bad variables: execution reports them to the caller as BAD_USER_INPUT, in the usual way.
    return null;
  }
}

/** The first limit the operation exceeds, if any. */
export function complexityRefusal(complexity: Complexity, limits: ComplexityLimits): QueryLimitError | null {
  // The usual cause: connections nested in connections without first/last, each counted at the default page.
  const pages = `(first/last; ${DEFAULT_PAGE_SIZE} when not given${complexity.unsized ? `, as for ${complexity.unsized.join(', ')}` : ''})`;
  if (complexity.objects > limits.maxObjects) {
    return new QueryLimitError(
      `Query is too complex: it may return ${count(complexity.objects)} objects, more than the limit of ${count(limits.maxObjects)}. ` +
        `Ask for fewer ids or smaller pages ${pages}.`,
      'QUERY_TOO_COMPLEX',
      limits.maxObjects,
      complexity.objects,
      'objects',
    );
  }
  if (complexity.fields > limits.maxFields) {
    return new QueryLimitError(
      `Query is too complex: it may return ${count(complexity.fields)} field values, more than the limit of ${count(limits.maxFields)}. ` +
        `Ask for fewer fields, ids or smaller pages ${pages}.`,
      'QUERY_TOO_COMPLEX',
      limits.maxFields,
      complexity.fields,
      'fields',
    );
  }
  return null;
}

/** Estimates kept per document, by operation name and variables; beyond this many the oldest goes. */
const ESTIMATES_PER_DOCUMENT = 64;
/** Variables longer than this (as JSON) are estimated every time rather than kept. */
const MAX_KEPT_VARIABLES = 2_048;

/**
 * Refuses an operation whose estimate exceeds the limits, before it runs. A plugin rather than a validation
 * rule: the estimate depends on the variables, and Apollo validates each document once and caches the result.
 * The estimate walks the whole document against the schema (0.13 ms for the three-level read of the
 * benchmarks, more than its SQL takes): Apollo hands over the same parsed document for the same query text, so
 * an estimate is kept per document, operation name and variables, and goes with the document from Apollo's cache.
 */
export function complexityLimitPlugin<Context extends object>(limits: ComplexityLimits): ApolloServerPlugin<Context> {
  const estimates = new WeakMap<DocumentNode, Map<string, Complexity | null>>();
  const estimate = (schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown> | undefined) => {
    const key = JSON.stringify([operationName ?? null, variables ?? null]);
    if (key.length > MAX_KEPT_VARIABLES) return estimateComplexity(schema, document, operationName, variables);
    let kept = estimates.get(document);
    if (!kept) estimates.set(document, (kept = new Map()));
    let complexity = kept.get(key);
    if (complexity === undefined) {
      complexity = estimateComplexity(schema, document, operationName, variables);
      if (kept.size >= ESTIMATES_PER_DOCUMENT) kept.delete(kept.keys().next().value!);
      kept.set(key, complexity);
    }
    return complexity;
  };
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operationName, request }) {
          const complexity = estimate(schema, document, operationName ?? undefined, request.variables);
          const refusal = complexity && complexityRefusal(complexity, limits);
          if (refusal) throw refusal;
        },
      };
    },
  };
}

/**
 * The deepest nesting of `{`, `[` and `(` in a GraphQL document's text, outside strings and comments. graphql-js
 * parses recursively, so a document nested a few thousand levels (which the token limit still lets through)
 * overflows the parser's stack before any depth rule can run: the router measures it first, in one pass.
 */
export function nestingDepth(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
    } else if (c === '"') {
      if (source.startsWith('"""', i)) {
        const end = source.indexOf('"""', i + 3);
        // Block strings escape only \""" (the backslash keeps it from closing the string).
        let close = end;
        while (close > 0 && source[close - 1] === '\\') close = source.indexOf('"""', close + 3);
        i = close < 0 ? source.length : close + 2;
      } else {
        for (i++; i < source.length && source[i] !== '"' && source[i] !== '\n'; i++) if (source[i] === '\\') i++;
      }
    } else if (c === '{' || c === '[' || c === '(') {
      deepest = Math.max(deepest, ++depth);
    } else if (c === '}' || c === ']' || c === ')') {
      depth = Math.max(0, depth - 1);
    }
  }
  return deepest;
}

/** Far beyond any real operation (selections are limited to GRAPHQL_MAX_DEPTH anyway), far below a stack overflow. */
export const MAX_NESTING = 100;

/** The refusal of a document nested deeper than MAX_NESTING, or null. */
export function nestingRefusal(source: unknown): QueryLimitError | null {
  if (typeof source !== 'string') return null;
  const found = nestingDepth(source);
  if (found <= MAX_NESTING) return null;
  return new QueryLimitError(
    `Query is nested ${count(found)} levels deep (brackets, braces and parentheses); the limit is ${MAX_NESTING}.`,
    'QUERY_TOO_DEEP',
    MAX_NESTING,
    found,
  );
}
