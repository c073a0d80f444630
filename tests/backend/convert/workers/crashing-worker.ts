// The conversion worker, except that its thread dies under any task for a file named crash.pdf,
// as a thread does after a WASM trap or when it runs out of memory.
import convertTask from '../../../../backend/platform/convert/convert-worker';

export default function crashingTask(task: Parameters<typeof convertTask>[0]): unknown {
  if ('source' in task && task.source.path.endsWith('crash.pdf')) process.exit(70);
  return convertTask(task);
}
