import express, { type Request, type RequestHandler, type Router } from 'express';
import type { AppDeps } from '../context/index.ts';
import { DomainError } from '../errors/index.ts';
import { FORM_TYPE, formBody, hasBody, JSON_TYPE, jsonBody } from '../http/body.ts';
import { readMultipart } from '../media/upload.ts';
import { resolvePrincipal } from '../http/authenticate.ts';

const MULTIPART_TYPE = 'multipart/form-data';
import { graphErrorHandler, graphErrorResponse } from '../http/errors/graph.ts';
import { queryParameters } from '../http/query.ts';
import { describeJsonFault } from '../text/json-limits.ts';
import { dispatch, type GraphRequest, type GraphResponse } from './dispatch.ts';
import { collectParams, decodeJsonText, itemParams, paramError } from './params.ts';

export const MAX_BATCH = 50;
/** /<version>/<path>: any first segment that starts with v is a version (an unknown one names no object). */
const VERSIONED_PATH = /^\/(v[^/]*)(?:\/(.*))?$/;
/** The same paths for Express to match: no capture groups, so Express decodes nothing (a bad %-escape would escape this router as a 500). */
const GRAPH_ROUTE = /^\/v[^/]*(?:\/.*)?$/;

/** A %-decoded path segment; one that does not decode stays as it came (and then names no object). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `Authorization: Bearer <token>` or `Authorization: OAuth <token>`. */
function headerToken(req: Request): string | undefined {
  return /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
}

function send(res: express.Response, response: GraphResponse): void {
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.status(response.status).json(response.body);
}

interface BatchItem {
  method?: unknown;
  relative_url?: unknown;
  body?: unknown;
}

/** Runs the calls of a batch one after another, each answered as {code, headers, body} like a call of its own. */
async function runBatch(deps: AppDeps, outer: GraphRequest, batch: unknown): Promise<unknown> {
  if (!Array.isArray(batch)) throw paramError('batch', 'Param batch must be a JSON array of requests');
  if (batch.length === 0) throw paramError('batch', 'Param batch must not be empty');
  if (batch.length > MAX_BATCH) throw paramError('batch', `Too many requests in batch message. Maximum batch size is ${MAX_BATCH}`);
  const answers = [];
  for (const [index, raw] of batch.entries()) {
    const item = raw as BatchItem;
    if (typeof item !== 'object' || item === null || typeof item.relative_url !== 'string') {
      throw paramError('batch', `Param batch[${index}] must have a relative_url`);
    }
    const [pathPart = '', query = ''] = item.relative_url.replace(/^\/+/, '').split('?', 2);
    const segments = pathPart.split('/').filter(Boolean);
    const version = segments[0] && VERSIONED_PATH.test(`/${segments[0]}`) ? segments.shift()! : outer.version;
    let response: GraphResponse;
    try {
      const params = itemParams(query, item.body);
      // A call without its own token uses the batch's.
      if (params.access_token === undefined && outer.params.access_token !== undefined) params.access_token = outer.params.access_token;
      const method = typeof item.method === 'string' ? item.method.toUpperCase() : 'GET';
      response = await dispatch(deps, { ...outer, method, version, path: segments.map(decodeSegment), params, requestId: `${outer.requestId}.${index}` });
    } catch (error) {
      const { status, body } = graphErrorResponse(error, outer.requestId, outer.logger());
      response = { status, headers: {}, body };
    }
    answers.push({
      code: response.status,
      headers: [
        { name: 'Content-Type', value: 'text/javascript; charset=UTF-8' },
        ...Object.entries(response.headers).map(([name, value]) => ({ name, value })),
      ],
      body: JSON.stringify(response.body),
    });
  }
  return answers;
}

/** The body's parameters: a form, or a JSON object (a JSON body that is not an object carries none). */
function bodyParams(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/**
 * A body is a form or JSON (a POST without a body carries its parameters in the query string), or multipart with
 * one media file (a comment's photo as `source`, media/upload.ts). Any other body (text/plain, XML) is refused by
 * its content type rather than ignored, which answered success having read no parameter.
 */
const refuseUnreadableBody: RequestHandler = (req, _res, next) => {
  if (!hasBody(req.headers) || req.is([FORM_TYPE, JSON_TYPE]) || (req.method === 'POST' && req.is(MULTIPART_TYPE))) return next();
  const type = req.headers['content-type']?.slice(0, 100);
  const readable = `send parameters as ${FORM_TYPE} or ${JSON_TYPE} (or ${MULTIPART_TYPE} with a media file)`;
  next(
    new DomainError('BAD_USER_INPUT', type ? `Content type ${type} is not supported: ${readable}` : `A request body needs a content type: ${readable}`, {
      graph: { code: 100 },
    }),
  );
};

/**
 * The Graph-style API under /v<version>: every route goes through one dispatcher (dispatch.ts), so tokens,
 * parameters, fields, paging, limits and the error envelope are handled once.
 */
export function graphApiRoutes(deps: AppDeps): Router {
  const router = express.Router();
  router.use(
    GRAPH_ROUTE,
    formBody({ limit: '1mb', maxParameters: 1000 }),
    jsonBody({ limit: '1mb', refuse: (name, fault) => paramError(name, describeJsonFault(`Param ${name}`, fault)) }),
    refuseUnreadableBody,
  );
  router.all(GRAPH_ROUTE, async (req, res) => {
    const [, version = '', rest = ''] = VERSIONED_PATH.exec(req.path) ?? [];
    const uploaded =
      req.method === 'POST' && req.is(MULTIPART_TYPE)
        ? await readMultipart(req, {
            storage: deps.media,
            maxBytes: deps.config.mediaMaxBytes,
            publicUrl: deps.config.publicUrl,
            authorized: async (fields) => {
              const token =
                (typeof fields.access_token === 'string' ? fields.access_token : undefined) ?? queryParameters(req).access_token ?? headerToken(req);
              return typeof token === 'string' && (await resolvePrincipal(deps, token)) !== null;
            },
          })
        : undefined;
    const outer: GraphRequest = {
      method: req.method,
      version,
      path: rest.split('/').filter(Boolean).map(decodeSegment),
      params: {
        ...collectParams(queryParameters(req)),
        ...collectParams(uploaded ?? bodyParams(req), req.is('application/json') ? 'json' : 'form'),
      },
      headerToken: headerToken(req),
      requestId: String(req.id),
      ip: req.ip,
      // Made on first use (an error's log line): src/server/http-logging.ts. A function, not a getter: a getter
      // in a literal is an accessor pair per request, which V8 keeps in its old generation with the whole request
      // reachable from it until a full collection (docs: decisions, "Apollo Server is patched").
      logger: () => req.log,
    };
    if (outer.path.length === 0 && req.method === 'POST' && outer.params.batch !== undefined) {
      res.setHeader('x-fb-trace-id', outer.requestId);
      res.json(await runBatch(deps, outer, decodeJsonText(outer.params.batch, 'batch')));
      return;
    }
    send(res, await dispatch(deps, outer));
  });
  router.use(GRAPH_ROUTE, graphErrorHandler);
  return router;
}
