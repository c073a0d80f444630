import { readFile, readdir } from 'node:fs/promises';

/** The nice value of each thread of this process, as the kernel schedules it (Linux). */
export async function threadNiceValues(): Promise<number[]> {
  const values: number[] = [];
  for (const tid of await readdir('/proc/self/task')) {
    const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8').catch(() => '');
    // After the command name (which may hold spaces and parentheses): state is field 3, nice field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.length > 16) values.push(Number(fields[16]));
  }
  return values;
}
