// Bundled by convert-bundle.test.ts beside the server bundles: prints the build the bundled
// backend reports (GetStats's hash and build_at) as JSON.
import { loadBackendConfig } from '../../backend/config';
import { loadBuildInfo } from '../../backend/platform/build-info';

console.log(JSON.stringify(await loadBuildInfo({ given: loadBackendConfig(process.env).build })));
