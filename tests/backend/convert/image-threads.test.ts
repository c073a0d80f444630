// libvips (sharp) works on threads of its own, at the priority of whoever started them; the
// conversion threads hand theirs on with lowerImageThreads (image-threads.ts). The whole
// conversion path is tested in page-pool.test.ts and documents/conversion.test.ts.
import { getPriority } from 'node:os';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { lowerImageThreads } from '../../../backend/platform/convert/image-threads';
import { isImageThread, threadStates } from '../../helpers/threads';

const imageNices = async () => (await threadStates()).filter(isImageThread).map((thread) => thread.nice);

describe.runIf(process.platform === 'linux')('lowerImageThreads', () => {
  it('brings every libvips thread down to the given nice value, never back up, and nothing else', async () => {
    const base = getPriority();
    const target = Math.min(base + 3, 19);
    expect(target).toBeGreaterThan(base);
    await sharp({ create: { width: 1600, height: 1600, channels: 3, background: '#e0e0e0' } })
      .webp()
      .toBuffer();
    const before = await imageNices();
    expect(before.length).toBeGreaterThan(0);

    expect(lowerImageThreads(target)).toBe(before.filter((nice) => nice < target).length);
    expect(await imageNices()).toEqual(before.map(() => target));
    // Already there: nothing to do; a higher priority is not given back.
    expect(lowerImageThreads(target)).toBe(0);
    expect(lowerImageThreads(base)).toBe(0);
    expect(await imageNices()).toEqual(before.map(() => target));
    // This thread (no argument: the caller's own priority) and the others were left alone.
    expect(getPriority()).toBe(base);
    expect(lowerImageThreads()).toBe(0);
    expect((await threadStates()).filter((thread) => !isImageThread(thread) && thread.nice !== base)).toEqual([]);
  });
});
