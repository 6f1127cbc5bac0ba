import type { RequestHandler } from 'express';

/** The 404 of a path no surface serves, in the identity API's `{message}` shape (the server's generic one). */
export const routeNotFound: RequestHandler = (_req, res) => void res.status(404).json({ message: 'Route not found.' });
