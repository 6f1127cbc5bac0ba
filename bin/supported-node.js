// The Node.js versions this project runs on are package.json's engines.node. On another one the bins and
// `npm test` stop in one line before loading anything native: better-sqlite3 13 crashes on Node 20 (a
// segmentation fault, not an error), and npm only warns about engines.
import { readFileSync } from 'node:fs';
import minVersion from 'semver/ranges/min-version.js';
import satisfies from 'semver/functions/satisfies.js';

/** One line saying why `version` cannot run `tool`, or undefined when engines (an npm range) allows it. */
export function unsupportedNodeMessage(tool, version, engines) {
  if (satisfies(version, engines)) return undefined;
  const majors = [...new Set(engines.split('||').map((part) => minVersion(part)?.major))].filter((major) => major !== undefined);
  const names = majors.sort((a, b) => b - a).join(' or ');
  return `${tool}: Node.js ${version} is not supported; use Node.js ${names} (package.json engines: ${engines})`;
}

/** That line for the running Node and package.json's engines. */
export function runningNodeProblem(tool) {
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return unsupportedNodeMessage(tool, process.versions.node, engines.node);
}

/** Exits with that line when the running Node is not one package.json's engines allows. */
export function refuseUnsupportedNode(tool) {
  const message = runningNodeProblem(tool);
  if (message === undefined) return;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
