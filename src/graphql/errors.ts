import { unwrapResolverError } from '@apollo/server/errors';
import type {
  GraphQLField,
  GraphQLFormattedError,
  GraphQLInputObjectType,
  GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
} from 'graphql';
import type { Response } from 'express';
import { bearerChallenge } from '../http/errors/challenge.ts';
import { classify } from '../http/errors/classify.ts';
import { DomainError, type GraphErrorDetails } from '../errors/index.ts';
import { queryLimitErrorOf, type QueryLimitError } from './limits.ts';

// Errors Apollo raises itself about the request (syntax, validation, variables): safe to show as they are.
const CLIENT_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
]);

function graphApiOf(graph: GraphErrorDetails) {
  return {
    code: graph.code,
    ...(graph.subcode !== undefined ? { error_subcode: graph.subcode } : {}),
    ...(graph.userTitle ? { error_user_title: graph.userTitle } : {}),
    ...(graph.userMessage ? { error_user_msg: graph.userMessage } : {}),
    ...(graph.data !== undefined ? { error_data: graph.data } : {}),
  };
}

/**
 * What an error is, decided once for both the answer (formatError) and the log (server.ts):
 * - `domain`: a service refused (its code, field, Graph API details);
 * - `limit`: a query limit refused the operation (limits.ts);
 * - `request`: Apollo's own refusal of the request (syntax, validation, variables), shown as it is;
 * - `unexpected`: anything else, a fault of ours, masked.
 */
export type ErrorKind =
  { kind: 'domain'; error: DomainError } | { kind: 'limit'; error: QueryLimitError } | { kind: 'request'; code: string } | { kind: 'unexpected' };

export function kindOf(error: unknown): ErrorKind {
  const domain = classify(unwrapResolverError(error));
  if (domain) return { kind: 'domain', error: domain };
  const limit = queryLimitErrorOf(error);
  if (limit) return { kind: 'limit', error: limit };
  // Read, not instanceof: graphql-js may be loaded twice (as ESM and CommonJS) under a test runner.
  const code = (error as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  if (typeof code === 'string' && CLIENT_ERROR_CODES.has(code)) return { kind: 'request', code };
  return { kind: 'unexpected' };
}

/**
 * The GraphQL side of the one error mapping: domain errors keep their message and gain
 * `extensions.code` (and `field`); anything unexpected is masked (the plugin in server.ts logs it).
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const where = { locations: formatted.locations, path: formatted.path };
  const known = kindOf(error);
  switch (known.kind) {
    case 'domain': {
      const domain = known.error;
      return {
        message: domain.message,
        ...where,
        extensions: {
          code: domain.code,
          // A path into the operation's arguments, or nothing: an error about a stored object (a copy's inherited
          // dsa_payor) names no argument, and /v24.0's snake_case names are not GraphQL paths.
          ...(graphqlPaths.has(domain) ? { field: graphqlPaths.get(domain) } : {}),
          ...(domain.retryAfterSeconds !== undefined ? { retryAfterSeconds: domain.retryAfterSeconds } : {}),
          // The same failure as the Graph-style API reports it, for callers that know its codes.
          ...(domain.graph ? { graphApi: graphApiOf(domain.graph) } : {}),
        },
      };
    }
    case 'limit':
      return { message: known.error.message, ...where, extensions: known.error.details };
    case 'request':
      return { message: formatted.message, ...where, extensions: { code: known.code } };
    case 'unexpected':
      return { message: 'Internal server error', ...where, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
}

/**
 * An access token refused before Apollo runs (http/authenticate.ts): the whole request is 401 with RFC 6750's
 * challenge, in GraphQL's shape, its extensions naming the OAuth error as the token endpoint would.
 */
export function sendTokenRefusal(res: Response, error: DomainError): void {
  const challenge = bearerChallenge(error);
  if (challenge) res.setHeader('WWW-Authenticate', challenge);
  res.status(401).json({ errors: [{ message: error.message, extensions: { code: error.code, oauthError: error.oauthError } }] });
}

// --- GraphQL paths for the fields domain errors name ---------------------------------------------------------

/**
 * The services name a bad parameter as `/v24.0` and `/api/v2` do: snake_case, nested with dots and list
 * positions (`lifetime_budget`, `targeting.geo_locations.countries`, `special_ad_categories[1]`,
 * `checks.0.object.any_org`). A GraphQL error names the path of the argument the caller sent instead: the
 * argument, then input fields by their GraphQL names and list positions in brackets (`input.lifetimeBudget`,
 * `input.specialAdCategories[1]`, `checks[0].object.anyOrg`, `input.targeting.geoLocations.countries`: the typed
 * specs differ from the Graph shape by case only, ads/graphql-shapes.ts). Inside a JSON argument the path goes on in
 * the keys the caller wrote (`input.bidAdjustments.user_groups`): JSON values pass as they are.
 *
 * A name matches an argument or input field when both read the same without underscores and case (so
 * `adset_id` is `adSetId`), the one rule graphql/helpers.ts graphParams renames by. Undefined when the name
 * is nowhere in the field's arguments (a copy refused for its source's dsa_payor): the error then names no
 * field. test/graphql/error-paths.test.ts checks every path an error names against the schema.
 */
export function argumentPath(parentType: string, field: GraphQLField<unknown, unknown>, domainField: string): string | undefined {
  const steps = domainField.split(/\.|(?=\[)/).map((step) => /^\[(\d+)\]$/.exec(step)?.[1] ?? step);
  const [first, ...rest] = steps;
  if (first === undefined) return undefined;
  const alias = ARGUMENT_ALIASES[`${parentType}.${field.name}`]?.[first];
  const argument = field.args.find((arg) => arg.name === alias || sameName(arg.name, first));
  if (argument) return walk(argument.type, rest, argument.name);
  // Otherwise a field of the mutation's input object.
  for (const arg of field.args) {
    const type = namedType(arg.type);
    if (isInputObject(type) && inputField(type, first)) return walk(arg.type, steps, arg.name);
  }
  return undefined;
}

/**
 * Where a resolver hands an argument to the service under another name (more than snake_case): the service's
 * name, by the field that takes the argument. test/graphql/error-paths.test.ts checks each against the schema.
 */
export const ARGUMENT_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // The object commented on is the /v24.0 path's id.
  'Mutation.publishComment': { id: 'objectId' },
  // setCommentHidden(hidden:) is /v24.0's is_hidden.
  'Mutation.setCommentHidden': { is_hidden: 'hidden' },
};

const sameName = (graphqlName: string, domainName: string) => graphqlName.replaceAll('_', '').toLowerCase() === domainName.replaceAll('_', '').toLowerCase();

/**
 * What kind of GraphQL type this is, by its tag rather than instanceof: under the test runner the schema may
 * come from the CommonJS build of graphql-js and this module from the ESM one (see kindOf above).
 */
const tag = (type: unknown) => (type as { [Symbol.toStringTag]?: string })[Symbol.toStringTag];
const isInputObject = (type: unknown): type is GraphQLInputObjectType => tag(type) === 'GraphQLInputObjectType';
const isWrapper = (type: unknown): type is GraphQLList<GraphQLInputType> | GraphQLNonNull<GraphQLInputType> =>
  tag(type) === 'GraphQLList' || tag(type) === 'GraphQLNonNull';
const namedType = (type: GraphQLInputType): GraphQLInputType => (isWrapper(type) ? namedType(type.ofType) : type);

const inputField = (type: GraphQLInputObjectType, name: string) => Object.values(type.getFields()).find((f) => sameName(f.name, name));

function walk(start: GraphQLInputType, steps: string[], path: string): string | undefined {
  let type: GraphQLInputType = start;
  let at = path;
  for (const [i, step] of steps.entries()) {
    if (tag(type) === 'GraphQLNonNull') type = (type as GraphQLNonNull<GraphQLInputType>).ofType;
    if (tag(type) === 'GraphQLScalarType' && (type as { name: string }).name === 'JSON') {
      return steps.slice(i).reduce((json, key) => (/^\d+$/.test(key) ? `${json}[${key}]` : `${json}.${key}`), at);
    }
    if (tag(type) === 'GraphQLList' && /^\d+$/.test(step)) {
      at = `${at}[${step}]`;
      type = (type as GraphQLList<GraphQLInputType>).ofType;
    } else if (isInputObject(type)) {
      const found = inputField(type, step);
      if (!found) return undefined;
      at = `${at}.${found.name}`;
      type = found.type;
    } else {
      return undefined;
    }
  }
  return at;
}

/** The GraphQL path a domain error was given by the field that raised it (withArgumentPaths), read by formatError. */
const graphqlPaths = new WeakMap<DomainError, string>();

function named(error: unknown, parentType: string, field: GraphQLField<unknown, unknown>): unknown {
  if (error instanceof DomainError && error.field !== undefined && !graphqlPaths.has(error)) {
    const path = argumentPath(parentType, field, error.field);
    if (path !== undefined) graphqlPaths.set(error, path);
  }
  return error;
}

/**
 * Gives every field that takes arguments a resolver that remembers, for a domain error it raises, the GraphQL
 * path of the argument at fault (argumentPath): the one place GraphQL translates the services' field names.
 */
export function withArgumentPaths(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (tag(type) !== 'GraphQLObjectType' || type.name.startsWith('__')) continue;
    for (const field of Object.values((type as GraphQLObjectType).getFields())) {
      const resolve = field.resolve;
      if (field.args.length === 0 || !resolve) continue;
      field.resolve = (source, args, context, info) => {
        try {
          const result = resolve(source, args, context, info);
          return result instanceof Promise
            ? result.catch((error: unknown) => {
                throw named(error, type.name, field);
              })
            : result;
        } catch (error) {
          throw named(error, type.name, field);
        }
      };
    }
  }
  return schema;
}
