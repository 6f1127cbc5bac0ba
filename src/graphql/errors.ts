import { unwrapResolverError } from '@apollo/server/errors';
import type {
  GraphQLEnumType,
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
 * - `request`: Apollo's own refusal of the request (syntax, validation, variables, a persisted query's hash), shown as it is;
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
  // Apollo's refusals that carry a 4xx status but no code (a persisted query's hash that does not match its text,
  // an unsupported persisted-query version): the caller's fault, shown as Apollo words it.
  const status = (error as { extensions?: { http?: { status?: unknown } } } | null)?.extensions?.http?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return { kind: 'request', code: 'BAD_REQUEST' };
  return { kind: 'unexpected' };
}

/**
 * The GraphQL side of the one error mapping: domain errors keep their message in GraphQL's words (graphqlMessage)
 * and gain `extensions.code` (and `field`); anything unexpected is masked (the plugin in server.ts logs it).
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const where = { locations: formatted.locations, path: formatted.path };
  const known = kindOf(error);
  switch (known.kind) {
    case 'domain': {
      const domain = known.error;
      const words = graphqlWords.get(domain);
      return {
        message: words?.message ?? domain.message,
        ...where,
        extensions: {
          code: domain.code,
          // A path into the operation's arguments, or nothing: an error about a stored object (a copy's inherited
          // dsa_payor) names no argument, and /v24.0's snake_case names are not GraphQL paths.
          ...(words?.path !== undefined ? { field: words.path } : {}),
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
 * A credential refused before Apollo runs (an access token or a session token, http/authenticate.ts): the whole
 * request is 401 with RFC 6750's challenge, in GraphQL's shape, its extensions naming the OAuth error as the
 * token endpoint would.
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
  return resolveArgument(parentType, field, domainField)?.path;
}

/** argumentPath, with the GraphQL type at the end of the path (none inside a JSON value). */
function resolveArgument(parentType: string, field: GraphQLField<unknown, unknown>, domainField: string): Resolved | undefined {
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
  // An estimate's targeting is /v24.0's targeting_spec.
  'Query.estimateDelivery': { targeting_spec: 'targeting' },
  'AdSet.deliveryEstimate': { targeting_spec: 'targeting' },
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

interface Resolved {
  path: string;
  type?: GraphQLInputType;
}

function walk(start: GraphQLInputType, steps: string[], path: string): Resolved | undefined {
  let type: GraphQLInputType = start;
  let at = path;
  for (const [i, step] of steps.entries()) {
    if (tag(type) === 'GraphQLNonNull') type = (type as GraphQLNonNull<GraphQLInputType>).ofType;
    if (tag(type) === 'GraphQLScalarType' && (type as { name: string }).name === 'JSON') {
      return { path: steps.slice(i).reduce((json, key) => (/^\d+$/.test(key) ? `${json}[${key}]` : `${json}.${key}`), at) };
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
  return { path: at, type };
}

// --- GraphQL words in the services' messages -----------------------------------------------------------------

/** A parameter as the services write it: snake_case words, dotted into objects, with list positions. */
const PARAMETER = String.raw`[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:\.[a-z][a-z0-9]*(?:_[a-z0-9]+)*|\.\d+|\[\d+\])*`;
/**
 * In one pass, so nothing is reworded twice: "Param x" or "The parameter x" (how every Graph-style message
 * introduces the parameter it is about), a list of allowed values `{a, b, c}`, or any other snake_case or dotted
 * name (`... must not exceed max_budget_spend_percentage`), not one inside quotes (a value the caller sent).
 */
const WORDS = new RegExp(String.raw`\b(?:Param|The parameter) (${PARAMETER})|\{([^{}]+)\}|(?<![\w.$"'-])(${PARAMETER})(?![\w-])`, 'g');

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const enumOf = (type: GraphQLInputType | undefined): GraphQLEnumType | undefined => {
  const named = type && namedType(type);
  return named && tag(named) === 'GraphQLEnumType' ? (named as GraphQLEnumType) : undefined;
};

/**
 * A service's message in GraphQL's words, for the field that raised it: each parameter the message names becomes
 * the GraphQL path of the argument the caller sent (`Param end_time must be after start_time` on createAdSet:
 * `input.endTime must be after input.startTime`), and the allowed values of the parameter at fault their GraphQL
 * enum names (`{photo, video}`: `{PHOTO, VIDEO}`). A parameter introduced with "Param" that is no argument of the
 * field (a stored object's property) takes its GraphQL field name (`dsa_payor`: `dsaPayor`). The /v24.0 and
 * /api/v2 surfaces keep the services' words; this is the one place GraphQL rewords them.
 */
export function graphqlMessage(parentType: string, field: GraphQLField<unknown, unknown>, message: string, domainField?: string): string {
  const resolve = (name: string) => resolveArgument(parentType, field, name);
  const enumType = enumOf(domainField === undefined ? undefined : resolve(domainField)?.type);
  const valueNames = new Map(
    (enumType?.getValues() ?? []).filter((v) => typeof v.value === 'string' && v.value !== v.name).map((v) => [v.value as string, v.name]),
  );
  const enumName = (value: string) => valueNames.get(value) ?? value;
  return message.replace(WORDS, (words, introduced?: string, values?: string, mentioned?: string) => {
    if (introduced !== undefined) return resolve(introduced)?.path ?? camelCase(introduced);
    if (values !== undefined) return `{${values.split(', ').map(enumName).join(', ')}}`;
    // A plain word is English; a name with _ . or [ is a parameter the field takes, a value of its enum, or left be.
    if (mentioned === undefined || !/[_.[]/.test(mentioned)) return words;
    return resolve(mentioned)?.path ?? enumName(mentioned);
  });
}

/** The GraphQL path and message a domain error was given by the field that raised it (withArgumentPaths), read by formatError. */
const graphqlWords = new WeakMap<DomainError, { path?: string; message: string }>();

function named(error: unknown, parentType: string, field: GraphQLField<unknown, unknown>): unknown {
  if (error instanceof DomainError && !graphqlWords.has(error)) {
    const path = error.field === undefined ? undefined : argumentPath(parentType, field, error.field);
    graphqlWords.set(error, { ...(path !== undefined ? { path } : {}), message: graphqlMessage(parentType, field, error.message, error.field) });
  }
  return error;
}

/**
 * Gives every field that takes arguments a resolver that remembers, for a domain error it raises, the GraphQL
 * path of the argument at fault (argumentPath) and its message in GraphQL's words (graphqlMessage): the one place
 * GraphQL translates the services' parameter names.
 */
export function withArgumentPaths(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (tag(type) !== 'GraphQLObjectType' || type.name.startsWith('__')) continue;
    for (const field of Object.values((type as GraphQLObjectType).getFields())) {
      if (field.args.length === 0) continue;
      // A subscription's arguments are read when it starts (subscribe), a query's when it resolves.
      for (const step of ['resolve', 'subscribe'] as const) {
        const run = field[step];
        if (!run) continue;
        field[step] = (source, args, context, info) => {
          try {
            const result = run(source, args, context, info);
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
  }
  return schema;
}
