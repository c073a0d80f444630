// The test tiers (README, Development):
//   `npm run test:quick`  typecheck, and the shared, server and web projects on the default
//                         engines (SQLite, files in DATA_DIR): unit, component and API tests, no
//                         browser, no real conversion, no build, no PostgreSQL or S3 server
//   `npm test`            typecheck, lint, the coverage gate (shared/ at least 95 % line-covered
//                         by its own tests) and every project (slow, e2e, and server-postgres
//                         where PostgreSQL's server is installed or REQUIRE_POSTGRES asks for it)
// Typecheck and lint use one core each: they run beside the tests, their output is shown
// after the tests' (or at once if they fail), and the run fails if any step fails.
import { spawn } from 'node:child_process';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Step {
  name: string;
  command: string;
  args: string[];
  /** added to the environment the step inherits */
  env?: Record<string, string>;
}

export interface Plan {
  /** run beside the tests, output held until the end */
  beside: Step[];
  /** run one after the other, output shown as it comes */
  tests: Step[];
}

const npm = (script: string): Step => ({ name: script, command: 'npm', args: ['run', '--silent', script] });
const vitest = (name: string, args: string[], env?: Record<string, string>): Step => ({
  name,
  command: 'node_modules/.bin/vitest',
  args: ['run', ...args],
  ...(env ? { env } : {}),
});

export const TIERS = {
  quick: {
    beside: [npm('typecheck')],
    // The suites' PostgreSQL and S3 halves are left to `npm test` (tests/helpers/engines.ts); a file about
    // nothing else is left out whole.
    tests: [
      vitest(
        'tests',
        [
          '--project',
          'shared',
          '--project',
          'server',
          '--project',
          'web',
          '--exclude',
          'tests/backend/s3-backend.test.ts',
        ],
        { TEST_ENGINES: 'default' },
      ),
    ],
  },
  full: {
    beside: [npm('typecheck'), npm('lint')],
    tests: [
      // Coverage slows every process it watches (a fifth more CPU): it watches the shared tests only.
      vitest('coverage gate', ['--project', 'shared', '--coverage']),
      // server-postgres exists only where PostgreSQL is (vitest.config.ts); a name that matches no project is passed
      // over.
      vitest('tests', [
        '--project',
        'server',
        '--project',
        'server-postgres',
        '--project',
        'slow',
        '--project',
        'web',
        '--project',
        'e2e',
      ]),
    ],
  },
} satisfies Record<string, Plan>;

interface Outcome {
  name: string;
  code: number;
  seconds: number;
  output: string;
}

function runStep(step: Step, cwd: string, hold: boolean): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const command = step.command.includes('/') ? resolvePath(cwd, step.command) : step.command;
    const child = spawn(command, step.args, {
      cwd,
      env: { ...process.env, ...step.env },
      stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const done = (code: number) =>
      resolve({ name: step.name, code, seconds: (performance.now() - started) / 1000, output });
    child.on('error', (error) => {
      output += `${error.message}\n`;
      done(127);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

/** Runs a plan; answers 0 when every step passed, else 1. `write` gets what is shown. */
export async function runPlan(
  plan: Plan,
  cwd: string,
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  const beside = plan.beside.map((step) =>
    runStep(step, cwd, true).then((outcome) => {
      // A failure shows at once: no need to wait for the tests to see it.
      if (outcome.code !== 0) write(`\n${outcome.name} failed (exit ${outcome.code}):\n${outcome.output}\n`);
      return outcome;
    }),
  );
  const tests: Outcome[] = [];
  for (const step of plan.tests) tests.push(await runStep(step, cwd, false));
  const outcomes = [...(await Promise.all(beside)), ...tests];
  for (const outcome of outcomes.slice(0, plan.beside.length))
    if (outcome.code === 0 && outcome.output.trim()) write(`\n${outcome.name}:\n${outcome.output}`);
  write(
    `\n${outcomes.map((o) => `${o.name}: ${o.code === 0 ? 'passed' : `FAILED (exit ${o.code})`} in ${o.seconds.toFixed(0)} s`).join('\n')}\n`,
  );
  return outcomes.every((o) => o.code === 0) ? 0 : 1;
}

if (process.argv[1] && resolvePath(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tier = process.argv[2] ?? '';
  if (!(tier in TIERS)) {
    process.stderr.write(`usage: tsx scripts/test.ts ${Object.keys(TIERS).join('|')}\n`);
    process.exit(2);
  }
  process.exit(await runPlan(TIERS[tier as keyof typeof TIERS], fileURLToPath(new URL('..', import.meta.url))));
}
