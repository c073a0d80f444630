// Types of image-threads.mjs (plain JavaScript: it runs in the conversion worker threads).

/**
 * Brings every libvips thread of the process down to `nice` (default: the calling thread's own); how many it lowered.
 */
export function lowerImageThreads(nice?: number): number;

/**
 * lowerImageThreads with the calling thread's priority, at most once every `intervalMs`, when that thread runs below
 * the process's main thread.
 */
export function imageThreadLowerer(intervalMs?: number): () => void;
