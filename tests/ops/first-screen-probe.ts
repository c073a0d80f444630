// Bundled by tests/ops/convert-bundle.test.ts next to the gateway's bundle: renders one first
// screen with the web build at argv[2], through the worker `npm run build:server` copies there.
import type { FastifyBaseLogger } from 'fastify';
import { loadFirstScreen } from '../../gateway/first-screen';

const quiet = () => undefined;
const log = {
  info: quiet,
  warn: (_data: unknown, message: string) => process.stderr.write(`${message}\n`),
} as unknown as FastifyBaseLogger;
const renderer = await loadFirstScreen(process.argv[2]!, log);
const screen = await renderer?.render('http://localhost/library', {
  settings: { system: { sitename: '测试文库' } },
  navigation: [],
  categories: [],
});
process.stdout.write(JSON.stringify(screen ?? null));
await renderer?.close();
