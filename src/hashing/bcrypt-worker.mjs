// Runs in a worker thread (piscina): bcrypt costs ~80 ms of CPU a call, which must not block the event loop.
// Plain JavaScript so worker threads load it without the TypeScript loader.
import bcrypt from 'bcryptjs';

export default function run(task) {
  return task.op === 'hash' ? bcrypt.hashSync(task.plain, task.cost) : bcrypt.compareSync(task.plain, task.hash);
}
