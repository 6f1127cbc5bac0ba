import express, { type Router } from 'express';
import type { AppDeps } from '../context/index.ts';

/**
 * GET /media/<key>: uploaded media, as its `source` URL says. Keys are content hashes (unguessable without the
 * bytes) and the media is what a comment already shows whoever may read it. Served as the type its bytes were
 * found to be, never sniffed by the browser, cacheable for ever (the bytes behind a key never change).
 */
export function mediaRoutes(deps: Pick<AppDeps, 'media'>): Router {
  const router = express.Router();
  router.get('/media/:key', async (req, res) => {
    const found = await deps.media.get(String(req.params.key));
    if (!found) {
      res.status(404).json({ message: 'Resource not found or you do not have access to this resource' });
      return;
    }
    res
      .set({
        'content-type': found.type,
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'",
        'cache-control': 'public, max-age=31536000, immutable',
      })
      .send(found.bytes);
  });
  return router;
}
