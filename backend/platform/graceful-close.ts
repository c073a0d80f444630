// The graceful stop of the site's processes (gateway, `npm run backend`, workers): close-with-grace,
// except that a stop signal coming again at once is the same request, not an order to quit now.
// `npm run` and tsx pass on to their child the SIGINT/SIGTERM they get, and a terminal's Ctrl-C
// or systemd's stop (KillMode=control-group) sends it to the whole process group: node gets it
// twice within a millisecond, and close-with-grace took the second for an impatient operator and
// exited 1 at once, cutting the requests and conversions the first one was letting finish.
import closeWithGrace from 'close-with-grace';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];
/** A stop signal within this long of the first is its echo; a later one still forces the exit. */
export const SIGNAL_ECHO_MS = 1000;

export function closeGracefully(
  opts: { delay: number },
  fn: (event: { err?: Error; signal?: closeWithGrace.Signals }) => Promise<void>,
): void {
  let stopping: { signal: StopSignal; at: number } | undefined;
  const { close } = closeWithGrace({ delay: opts.delay, skip: [...STOP_SIGNALS] }, (event) =>
    fn(event.manual && stopping ? { signal: stopping.signal } : event),
  );
  const onStop = (signal: StopSignal) => {
    if (!stopping) {
      stopping = { signal, at: Date.now() };
      close();
    } else if (Date.now() - stopping.at >= SIGNAL_ECHO_MS) {
      console.error(`second ${signal}, exiting`);
      process.exit(1);
    }
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onStop);
}
