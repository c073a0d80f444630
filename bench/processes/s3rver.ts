// An S3-compatible server (s3rver, as the tests use it) in a process of its own, so that its
// CPU time is its own and not the load generator's. Announces `{"ready": "<endpoint>", "env": {S3_*}}`.
import { startS3 } from '../../tests/helpers/s3';

const s3 = await startS3({ bucket: 'moredoc-bench' });
console.log(JSON.stringify({ ready: s3.endpoint, env: s3.env }));
process.on('SIGTERM', () => {
  s3.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
