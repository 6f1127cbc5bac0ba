import express, { type Router } from 'express';
import type { AppDeps } from '../context/index.ts';
import { identityErrorHandler } from '../http/errors/identity.ts';
import { requireJsonObject } from '../http/body.ts';
import * as identity from './service.ts';

/**
 * The identity REST API under /api/v2 (after Coder's coderd): thin adapters over the identity service.
 * Its error shape is written by identityErrorHandler and nowhere else.
 */
export function identityRoutes(deps: AppDeps, authenticate: express.RequestHandler): Router {
  const router = express.Router();
  router.use(express.json({ limit: '64kb' }), authenticate);

  router.post('/users/login', async (req, res) => {
    const body = requireJsonObject(req.body, ['email', 'password']);
    const { sessionToken } = await identity.login(deps, body, req.ip);
    res.status(201).json({ session_token: sessionToken });
  });

  router.post('/users/logout', async (_req, res) => {
    await identity.logout(res.locals.ctx);
    res.status(200).json({ message: 'Logged out.' });
  });

  router.get('/users/me', async (_req, res) => {
    const user = await identity.me(res.locals.ctx);
    if (!user) return void res.status(404).json({ message: 'API clients have no user.' });
    res.json({
      id: user.id, email: user.email, username: user.username, name: user.name, login_type: user.loginType,
      status: user.status, site_admin: user.siteAdmin, created_at: user.createdAt.toISOString(),
    });
  });

  router.use((_req, res) => void res.status(404).json({ message: 'Route not found.' }));
  router.use(identityErrorHandler);
  return router;
}
