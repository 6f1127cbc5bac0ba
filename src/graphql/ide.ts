/**
 * The GraphQL IDE (GraphiQL) that a browser gets when it opens the GraphQL endpoint.
 *
 * DECISIONS.md section 1: the IDE must work with no internet access, so every asset comes from
 * node_modules through this router (never a CDN). GraphiQL 3.9's UMD build needs React 18's UMD builds
 * as the globals `React` and `ReactDOM`; `start.js` (generated here) mounts it.
 *
 * Mount it before Apollo: `app.use(graphqlIde({ endpoint: '/graphql' }))`. Anything that is not the IDE
 * page or one of its assets falls through with `next()`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { routeNotFound } from '../http/not-found.ts';

export interface GraphqlIdeOptions {
  /** Path of the GraphQL endpoint, e.g. '/graphql'. The IDE page lives there, its assets under `<endpoint>/ide/`. */
  endpoint: string;
}

const require = createRequire(import.meta.url);

/** The one place the IDE's files are listed: served name -> package and file inside it. */
const PACKAGED_ASSETS: Record<string, { pkg: string; file: string; type: string }> = {
  'react.production.min.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'text/javascript; charset=utf-8' },
  'react-dom.production.min.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.min.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.min.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css; charset=utf-8' },
};

/**
 * Strict CSP for the page. Scripts only from this origin (hence no inline bootstrap script); GraphiQL
 * and CodeMirror set inline styles, so styles also need 'unsafe-inline'. Its fonts are data: URLs
 * inside graphiql.min.css. connect-src 'self' is all the fetcher needs (its WebSocket to this host too).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Asset {
  body: Buffer;
  gzip: Buffer;
  type: string;
  /** Short content hash, appended to asset URLs so that the long cache below never serves a stale file. */
  hash: string;
}

/** Builds an asset once; the caller keeps it in memory. */
function makeAsset(body: Buffer, type: string): Asset {
  return { body, gzip: gzipSync(body), type, hash: createHash('sha256').update(body).digest('hex').slice(0, 12) };
}

/**
 * Resolves a file inside a package. The packages' `exports` maps hide their UMD files
 * (`graphiql/graphiql.min.js` is ERR_PACKAGE_PATH_NOT_EXPORTED), so resolve `package.json`, which all
 * three export, and go from its directory.
 */
function packageFile(pkg: string, file: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), file);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The document a first visit opens on (GraphiQL keeps the user's own tabs after that): how to sign in, then the
 * README's first query. The password goes into the Sign in panel or the Variables, never into the document, so it
 * stays out of the history GraphiQL keeps.
 */
export const STARTER_DOCUMENT = `# adgraph GraphQL IDE
#
# 1. Sign in: open the key button on the left (Sign in), enter your e-mail and password; the session token
#    goes into the Headers tab as Service-Session-Token. Or run SignIn below with Variables
#    {"input": {"email": "...", "password": "..."}} and copy the token into Headers yourself.
# 2. Run AdAccounts (the run button offers each operation of this document).
#
# Headers are forgotten on reload unless "Remember the token" (or Settings > Persist headers) is on:
# only turn it on on a device you trust.

mutation SignIn($input: LoginInput!) {
  login(input: $input) {
    sessionToken
    expiresAt
  }
}

query AdAccounts {
  adAccounts(first: 5) {
    nodes {
      actId
      name
      currency
      adSets(first: 10, status: [ACTIVE]) {
        totalCount
        nodes {
          name
          effectiveStatus
          dailyBudget
          campaign {
            name
          }
          ads {
            nodes {
              name
            }
          }
        }
      }
    }
  }
}
`;

/**
 * The bootstrap script. Generated so the endpoint is baked in; served as a file because of the CSP.
 *
 * Headers persist as GraphiQL's opt-in: `shouldPersistHeaders` is left unset, so they are not kept unless the user
 * turns on Settings > Persist headers (GraphiQL stores that choice), or ticks "Remember the token" in the Sign in
 * panel, which turns on the same setting.
 */
function startScript(endpoint: string): string {
  return `// Mounts GraphiQL (globals React, ReactDOM, GraphiQL come from the UMD builds loaded before this file).
(function () {
  'use strict';
  var h = React.createElement;
  var url = new URL(${JSON.stringify(endpoint)}, window.location.href).href;
  // createFetcher POSTs with content-type: application/json, which Apollo's CSRF prevention accepts. Subscriptions
  // go over WebSocket to the same path (graphql-ws, bundled in GraphiQL), the Headers tab's token as connection params.
  var fetcher = GraphiQL.createFetcher({ url: url, subscriptionUrl: url.replace(/^http/, 'ws') });
  var TOKEN_HEADER = 'Service-Session-Token';
  var SIGN_IN = 'mutation SignIn($input: LoginInput!) { login(input: $input) { sessionToken expiresAt } }';

  function post(body, headers) {
    return fetch(url, {
      method: 'POST',
      headers: Object.assign({ 'content-type': 'application/json', accept: 'application/json' }, headers || {}),
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json();
    });
  }

  // The Headers tab's text as an object; text that is not a JSON object is replaced rather than lost silently.
  function parseHeaders(text) {
    try {
      var parsed = JSON.parse(text || '{}');
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
    } catch (e) {
      return {};
    }
  }

  function KeyIcon() {
    return h(
      'svg',
      { viewBox: '0 0 24 24', width: '1em', height: '1em', fill: 'none', stroke: 'currentColor', strokeWidth: 1.5, 'aria-hidden': 'true' },
      h('circle', { cx: 8, cy: 15, r: 4 }),
      h('path', { d: 'M11 12l9-9M17 6l3 3M15 8l2 2' }),
    );
  }

  // A password in this form goes straight to the login mutation: it never enters the editors or their history.
  function SignInPanel() {
    var editorState = GraphiQL.React.useHeadersEditorState();
    var headersText = editorState[0];
    var setHeadersText = editorState[1];
    var editor = GraphiQL.React.useEditorContext({ nonNull: true });
    var status = React.useState('');
    var busy = React.useState(false);
    var pendingToken = React.useState(null);
    var token = parseHeaders(headersText)[TOKEN_HEADER];

    // The token goes into the headers only once the persistence choice has been rendered: the headers editor
    // stores what it is given with the setting it had when the text changed.
    React.useEffect(
      function () {
        if (!pendingToken[0]) return undefined;
        var timer = setTimeout(function () {
          putToken(pendingToken[0]);
          pendingToken[1](null);
        }, 0);
        return function () {
          clearTimeout(timer);
        };
      },
      [pendingToken[0], editor.shouldPersistHeaders],
    );

    function putToken(value) {
      var headers = parseHeaders(headersText);
      if (value) headers[TOKEN_HEADER] = value;
      else delete headers[TOKEN_HEADER];
      setHeadersText(JSON.stringify(headers, null, 2));
    }

    function signIn(event) {
      event.preventDefault();
      var form = event.currentTarget;
      var remember = form.elements.remember.checked;
      busy[1](true);
      post({ query: SIGN_IN, operationName: 'SignIn', variables: { input: { email: form.elements.email.value, password: form.elements.password.value } } })
        .then(function (result) {
          var login = result.data && result.data.login;
          if (!login) throw new Error(result.errors && result.errors[0] ? result.errors[0].message : 'Sign-in failed.');
          form.elements.password.value = '';
          editor.setShouldPersistHeaders(remember);
          pendingToken[1](login.sessionToken);
          status[1]('Signed in until ' + new Date(login.expiresAt).toLocaleString() + '. The token is in the Headers tab.');
        })
        .catch(function (error) {
          status[1](error.message);
        })
        .finally(function () {
          busy[1](false);
        });
    }

    function signOut() {
      var headers = {};
      headers[TOKEN_HEADER] = token;
      post({ query: 'mutation SignOut { logout }', operationName: 'SignOut' }, headers)
        .catch(function () {})
        .then(function () {
          putToken(undefined);
          status[1]('Signed out.');
        });
    }

    var field = function (label, input) {
      return h('label', { style: { display: 'block', marginBottom: '0.75em' } }, h('div', null, label), input);
    };
    var inputStyle = { width: '100%', boxSizing: 'border-box', padding: '0.4em', marginTop: '0.25em' };
    return h(
      'div',
      { className: 'adgraph-sign-in' },
      h('div', { className: 'graphiql-doc-explorer-title' }, 'Sign in'),
      h(
        'form',
        { onSubmit: signIn, style: { marginTop: '1em' } },
        field('E-mail', h('input', { name: 'email', type: 'email', autoComplete: 'username', required: true, style: inputStyle })),
        field('Password', h('input', { name: 'password', type: 'password', autoComplete: 'current-password', required: true, style: inputStyle })),
        h(
          'label',
          { style: { display: 'block', marginBottom: '0.75em' } },
          h('input', { name: 'remember', type: 'checkbox', defaultChecked: editor.shouldPersistHeaders }),
          ' Remember the token on this device (Settings > Persist headers: only on a device you trust)',
        ),
        h(GraphiQL.React.Button, { type: 'submit', disabled: busy[0] }, busy[0] ? 'Signing in…' : 'Sign in'),
        token ? h(GraphiQL.React.Button, { type: 'button', onClick: signOut, style: { marginLeft: '0.5em' } }, 'Sign out') : null,
      ),
      h('p', { role: 'status', className: 'adgraph-sign-in-status' }, status[0]),
    );
  }

  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    h(GraphiQL, {
      fetcher: fetcher,
      // The headers editor is where Service-Session-Token (or Authorization) goes; createFetcher sends them.
      isHeadersEditorEnabled: true,
      defaultQuery: ${JSON.stringify(STARTER_DOCUMENT)},
      plugins: [{ title: 'Sign in', icon: KeyIcon, content: SignInPanel }],
    }),
  );
})();
`;
}

export function graphqlIde(options: GraphqlIdeOptions): RequestHandler {
  const endpoint = options.endpoint.replace(/\/+$/, '') || '/';
  const assetPrefix = `${endpoint === '/' ? '' : endpoint}/ide/`;

  // Read lazily (a server that never serves the IDE never reads ~1.4 MB) and only once.
  const assets = new Map<string, Asset>();
  function asset(name: string): Asset | undefined {
    let found = assets.get(name);
    if (found) return found;
    if (name === 'start.js') {
      found = makeAsset(Buffer.from(startScript(endpoint)), 'text/javascript; charset=utf-8');
    } else {
      const spec = PACKAGED_ASSETS[name];
      if (!spec) return undefined;
      found = makeAsset(readFileSync(packageFile(spec.pkg, spec.file)), spec.type);
    }
    assets.set(name, found);
    return found;
  }

  let page: string | undefined;
  function renderPage(): string {
    const src = (name: string) => escapeHtml(`${assetPrefix}${name}?v=${asset(name)!.hash}`);
    page ??= `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>adgraph GraphQL IDE</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${src('graphiql.min.css')}">
<style>html, body { height: 100%; margin: 0; overflow: hidden; } #graphiql { height: 100vh; }</style>
</head>
<body>
<div id="graphiql">Loading the GraphQL IDE…</div>
<noscript>The GraphQL IDE needs JavaScript. The endpoint also accepts POST requests with a JSON body.</noscript>
<script src="${src('react.production.min.js')}"></script>
<script src="${src('react-dom.production.min.js')}"></script>
<script src="${src('graphiql.min.js')}"></script>
<script src="${src('start.js')}"></script>
</body>
</html>
`;
    return page;
  }

  // One handler, not a router: every request passes by, and a router's layer costs each of them. Plain path
  // comparison rather than route patterns: the endpoint is configuration, not a pattern.
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();

    if (req.path === endpoint || req.path === `${endpoint}/`) {
      // A browser navigation prefers text/html; API clients (and GET queries, which carry `query`, or
      // `extensions` for persisted queries) go on to Apollo.
      const q = req.query as Record<string, unknown>;
      if (req.accepts(['application/json', 'text/html']) !== 'text/html' || q.query !== undefined || q.extensions !== undefined) {
        return next();
      }
      res.set({
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'Cache-Control': 'no-cache',
        Vary: 'Accept',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      });
      res.send(renderPage());
      return;
    }

    if (req.path.startsWith(assetPrefix)) {
      const found = asset(req.path.slice(assetPrefix.length));
      // A missing asset is a 404, not a GraphQL request.
      if (!found) return routeNotFound(req, res, next);
      const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip';
      res.set({
        'Content-Type': found.type,
        // URLs carry ?v=<content hash>, so a year-long immutable cache is safe.
        'Cache-Control': 'public, max-age=31536000, immutable',
        ETag: gzip ? `"${found.hash}-gz"` : `"${found.hash}"`,
        Vary: 'Accept-Encoding',
        'X-Content-Type-Options': 'nosniff',
      });
      if (gzip) res.set('Content-Encoding', 'gzip');
      // res.send answers 304 to a matching If-None-Match and leaves the body out for HEAD.
      res.send(gzip ? found.gzip : found.body);
      return;
    }

    next();
  };
}
