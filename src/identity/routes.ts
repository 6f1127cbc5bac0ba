import express, { type Router } from 'express';
import type { AppDeps } from '../context/index.ts';
import { EXTERNAL_SCOPES } from '../authz/policy.ts';
import { identityErrorHandler } from '../http/errors/identity.ts';
import { jsonBody, requireJsonObject } from '../http/body.ts';
import { badInput } from '../errors/index.ts';
import { describeJsonFault } from '../text/json-limits.ts';
import { routeNotFound } from '../http/not-found.ts';
import * as identity from './service.ts';
import { authCheck } from './authcheck.ts';
import { convertLogin } from './conversion.ts';
import { changePasswordWithOneTimePasscode, requestOneTimePasscode } from './passcodes.ts';

/**
 * The identity REST API under /api/v2 (after Coder's coderd): thin adapters over the identity service.
 * Its error shape is written by identityErrorHandler and nowhere else.
 */
export function identityRoutes(deps: AppDeps, authenticate: express.RequestHandler): Router {
  const router = express.Router();
  router.use(jsonBody({ limit: '64kb', refuse: (field, fault) => badInput(field, `${describeJsonFault(`"${field}"`, fault)}.`) }), authenticate);

  router.get('/auth/scopes', (_req, res) => void res.json({ external: EXTERNAL_SCOPES }));

  router.post('/authcheck', async (req, res) => {
    identity.requireViewer(res.locals.ctx); // a missing session is a 401 before anything about the body
    const body = requireJsonObject(req.body, ['checks']);
    res.json(await authCheck(res.locals.ctx, body.checks));
  });

  router.post('/users/login', async (req, res) => {
    const body = requireJsonObject(req.body, ['email', 'password']);
    const { sessionToken } = await identity.login(deps, body, req.ip);
    res.status(201).json({ session_token: sessionToken });
  });

  router.post('/users/logout', async (_req, res) => {
    await identity.logout(res.locals.ctx);
    res.status(200).json({ message: 'Logged out.' });
  });

  router.post('/users/otp/request', async (req, res) => {
    await requestOneTimePasscode(deps, requireJsonObject(req.body, ['email']));
    res.status(204).end();
  });

  router.post('/users/otp/change-password', async (req, res) => {
    await changePasswordWithOneTimePasscode(deps, requireJsonObject(req.body, ['email', 'one_time_passcode', 'password']));
    res.status(204).end();
  });

  router.post('/users/validate-password', async (req, res) => {
    identity.requireViewer(res.locals.ctx);
    res.json(identity.validatePassword(res.locals.ctx, requireJsonObject(req.body, ['password']).password));
  });

  router.post('/users/:user/convert-login', async (req, res) => {
    identity.requireViewer(res.locals.ctx);
    const body = requireJsonObject(req.body, ['to_type', 'password']);
    const conversion = await convertLogin(res.locals.ctx, String(req.params.user), body);
    res.status(201).json({
      expires_at: conversion.expiresAt.toISOString(),
      state_string: conversion.stateString,
      to_type: conversion.toType,
      user_id: conversion.userId,
    });
  });

  router.get('/users/me', async (_req, res) => {
    const user = await identity.me(res.locals.ctx);
    if (!user) return void res.status(404).json({ message: "This token has no user: it is an API client's or a page's." });
    res.json({
      id: user.id,
      email: user.email,
      username: user.username,
      name: user.name,
      login_type: user.loginType,
      status: user.status,
      site_admin: user.siteAdmin,
      created_at: user.createdAt.toISOString(),
    });
  });

  router.use(routeNotFound);
  router.use(identityErrorHandler);
  return router;
}
