// A child process for tests/backend/heap.test.ts: keeps a live set, then allocates objects that
// live long enough to be promoted and die in the old generation (as requests under load do), and
// prints the largest old generation seen against what is alive at the end.
import v8 from 'node:v8';
import { boundHeapGrowth } from '../../backend/platform/heap';

if (process.argv[2] === 'bound') boundHeapGrowth([]);
const oldSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_size;
const live: object[] = [];
for (let i = 0; i < 150_000; i++) live.push({ i, text: `live ${i}`, list: [i, i + 1] });
const recent: object[] = new Array(200_000);
let largestOld = 0;
for (let i = 0; i < 4_000_000; i++) {
  recent[i % recent.length] = { i, text: `churn ${i}`, list: [i] };
  if (i % 10_000 === 0) largestOld = Math.max(largestOld, oldSpace());
}
globalThis.gc!();
process.stdout.write(
  JSON.stringify({ largestOld, alive: v8.getHeapStatistics().used_heap_size, kept: live.length + recent.length }),
);
