/** Types of ./compiled.js for the TypeScript that imports it (scripts and tests). */
export declare const BUILD_STAMP: string;
export declare function buildProblem(): string | null;
export declare function compiled(modulePath: string, tool: string): string;
