// Runs in a worker thread (piscina): bcrypt costs ~80 ms of CPU a call, which must not block the event loop.
// Plain CommonJS: piscina loads a worker with require(), and on Node 24 require() of an ES module aborted the
// whole process now and then when the pool was destroyed while the worker was still loading it (a V8 assertion in
// CreateRequiredModuleFacade; seen as a SIGABRT of a short CLI command).
'use strict';
const bcrypt = require('bcryptjs');

module.exports = function run(task) {
  return task.op === 'hash' ? bcrypt.hashSync(task.plain, task.cost) : bcrypt.compareSync(task.plain, task.hash);
};
