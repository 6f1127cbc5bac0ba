// Types of ./supported-node.js, for the tests that import it.
export function unsupportedNodeMessage(tool: string, version: string, engines: string): string | undefined;
export function runningNodeProblem(tool: string): string | undefined;
export function refuseUnsupportedNode(tool: string): void;
