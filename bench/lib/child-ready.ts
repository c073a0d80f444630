// The end of a benchmark's child process start-up (bench/processes/): one JSON line on stdout that
// the parent waits for (startNodeProcess in processes.ts), and a clean exit on SIGTERM.

/** Prints `announcement` (its `ready` field at least) and exits 0 once `stop` has finished after SIGTERM, 1 if it failed. */
export function announceReady(announcement: { ready: string } & Record<string, unknown>, stop: () => Promise<unknown>) {
  console.log(JSON.stringify(announcement));
  process.on('SIGTERM', () => {
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
