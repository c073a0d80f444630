// Reading a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file) as two tables: self time
// by where the code lives (a package of node_modules, Node's own internals, a file of ours,
// garbage collection, idle), and the functions with the most self and total time. Enough to
// see what a request costs without a flame-graph viewer.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './processes';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileRow {
  name: string;
  /** share of all sampled time, 0–1 */
  self: number;
  /** share of the samples with this on the stack (functions only) */
  total?: number;
}

export interface ProfileSummary {
  /** sampled time, milliseconds */
  sampledMs: number;
  /** share of the sampled time the process was idle (waiting for I/O) */
  idle: number;
  byPlace: ProfileRow[];
  /** the most self time first */
  byFunction: ProfileRow[];
  /** the most total time first (top-down: what a request spends under each function) */
  byTotal: ProfileRow[];
}

/** Where a function's code lives: `fastify`, `node:internal/…` collapsed to `node`, our files by path. */
export function placeOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:'))
    return `node:${
      url
        .slice(5)
        .replace(/^internal\//, '')
        .split('/')[0]
    }`;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const modules = path.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const rest = path.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return relative(REPO_ROOT, path);
}

function functionKey(frame: CallFrame): string {
  const place = placeOf(frame);
  const name = frame.functionName || '(anonymous)';
  return frame.url === '' ? name : `${name} ${place}:${frame.lineNumber + 1}`;
}

/** The summary of the whole profile, or of its last `lastMs` milliseconds (the load, not the start). */
export function summarizeProfile(profile: CpuProfile, top = 25, lastMs = Infinity): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

  const selfTime = new Map<number, number>();
  let sampled = 0;
  const end = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (end - at > lastMs * 1000) continue;
    selfTime.set(profile.samples[i]!, (selfTime.get(profile.samples[i]!) ?? 0) + delta);
    sampled += delta;
  }

  const placeSelf = new Map<string, number>();
  const functionSelf = new Map<string, number>();
  const functionTotal = new Map<string, number>();
  let idle = 0;
  for (const [id, time] of selfTime) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') idle += time;
    const place = placeOf(node.callFrame);
    placeSelf.set(place, (placeSelf.get(place) ?? 0) + time);
    const key = functionKey(node.callFrame);
    functionSelf.set(key, (functionSelf.get(key) ?? 0) + time);
    // Total time: once per function on the stack, however often it recurses.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frameKey = functionKey(byId.get(at)!.callFrame);
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      functionTotal.set(frameKey, (functionTotal.get(frameKey) ?? 0) + time);
    }
  }

  const busy = sampled - idle || 1;
  const rank = (entries: Map<string, number>) =>
    [...entries]
      .filter(([name]) => name !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, top);
  return {
    sampledMs: sampled / 1000,
    idle: sampled > 0 ? idle / sampled : 0,
    byPlace: rank(placeSelf).map(([name, time]) => ({ name, self: time / busy })),
    byFunction: rank(functionSelf).map(([name, time]) => ({
      name,
      self: time / busy,
      total: (functionTotal.get(name) ?? 0) / busy,
    })),
    byTotal: rank(functionTotal).map(([name, time]) => ({
      name,
      self: (functionSelf.get(name) ?? 0) / busy,
      total: time / busy,
    })),
  };
}
