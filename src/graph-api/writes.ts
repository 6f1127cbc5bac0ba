import type { RequestContext } from '../context/index.ts';
import type { NodeName } from './nodes.ts';

/** The writes each Graph node type accepts: update (POST /<id>), delete (DELETE /<id>), create (POST /<id>/<edge>). */
export interface NodeWrites {
  update?(ctx: RequestContext, record: any, params: Record<string, unknown>): Promise<unknown>;
  remove?(ctx: RequestContext, record: any): Promise<unknown>;
  create?: Record<string, (ctx: RequestContext, parent: any, params: Record<string, unknown>) => Promise<Record<string, unknown>>>;
}

export const WRITES: Partial<Record<NodeName, NodeWrites>> = {};
