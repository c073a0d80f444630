import { readFile, readdir } from 'node:fs/promises';

export interface ThreadState {
  /** the kernel's name of the thread (`node`, `libvips worker`, …) */
  name: string;
  nice: number;
}

/** Each thread of this process as the kernel schedules it: its name and nice value (Linux). */
export async function threadStates(): Promise<ThreadState[]> {
  const states: ThreadState[] = [];
  for (const tid of await readdir('/proc/self/task')) {
    const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8').catch(() => '');
    // After the command name (which may hold spaces and parentheses): state is field 3, nice field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length > 16)
      states.push({ name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), nice: Number(fields[16]) });
  }
  return states;
}

/** The threads of libvips (sharp's image work). */
export const isImageThread = (thread: ThreadState) => thread.name.startsWith('libvips');
