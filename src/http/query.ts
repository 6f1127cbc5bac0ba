import type { Request } from 'express';
import { DomainError } from '../errors/index.ts';
import { parseFormEncoded, type FormFields } from '../text/form-encoding.ts';

const UNREADABLE = Symbol('unreadable query string');

type ParsedQuery = FormFields & { [UNREADABLE]?: DomainError };

/**
 * Express's `query parser` setting: the query string read as form bodies are (src/text/form-encoding.ts).
 * Express parses it whenever `req.query` is read, the request logger included, so this never throws: a query
 * string that does not decode to UTF-8 parses to no parameters and carries its refusal, which the surfaces that
 * read parameters from it raise through queryParameters.
 */
export function parseQueryString(search: string | null | undefined): ParsedQuery {
  try {
    return parseFormEncoded(search ?? '');
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const refused = Object.create(null) as ParsedQuery;
    refused[UNREADABLE] = error;
    return refused;
  }
}

/** The request's query parameters; a query string that does not decode to UTF-8 is refused, naming the parameter. */
export function queryParameters(req: Request): FormFields {
  const query = req.query as ParsedQuery;
  const refusal = query[UNREADABLE];
  if (refusal) throw refusal;
  return query;
}
