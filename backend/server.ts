import { storageLine, storagePlaces } from './config';
import { createdAdminLine, exitOnError, startBackendProcess } from './process';

// `npm run backend`: the embedded backend on its own. Reads the environment once, listens,
// prints where it listens (and the admin credentials on the first start), closes gracefully.

async function main(): Promise<void> {
  const { config, app } = await startBackendProcess();
  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // A port taken or an address not this machine's: one line, as for a bad setting, no stack;
    // and the admin account made meanwhile, whose generated password no later start prints.
    await app.close();
    console.error(
      `The backend could not start on ${config.host}:${config.port} (BACKEND_HOST, BACKEND_PORT): ${error instanceof Error ? error.message : String(error)}`,
    );
    if (app.initialAdmin) console.error(createdAdminLine(app.initialAdmin));
    process.exit(1);
  }
  // The account first: the listening line is the start's last word, which whoever waits for it reads everything by.
  if (app.initialAdmin) console.log(createdAdminLine(app.initialAdmin));
  console.log(`MOREDOC-compatible backend listening on ${address} (${storageLine(storagePlaces(config))})`);
}

main().catch(exitOnError);
