// Bundled by convert-bundle.test.ts beside the server bundles: prints the index terms the
// bundled search index gives a text (argv[2]), as JSON.
import { indexTerms } from '../../backend/platform/search/bigrams';

console.log(JSON.stringify(indexTerms(process.argv[2] ?? '')));
