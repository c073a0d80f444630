// React's `lazy`, for components whose code comes apart from the screen that shows them. The
// gateway's first screen (entry-server.tsx) uses lazy.server.ts instead: there they are always
// still coming, so it shows their Suspense fallbacks, as the browser does before their code is here.
// eslint-disable-next-line no-restricted-imports -- the one door to React's lazy
export { lazy } from 'react';
