// An S3-compatible server (s3rver, as the tests use it) in a process of its own, so that its
// CPU time is its own and not the load generator's. Announces `{"ready": "<endpoint>", "env": {S3_*}}`.
import { startS3 } from '../../tests/helpers/s3';
import { announceReady } from '../lib/child-ready';

const s3 = await startS3({ bucket: 'moredoc-bench' });
announceReady({ ready: s3.endpoint, env: s3.env }, () => s3.stop());
