// The door to Semi Design for the first screen (semi-extra.ts and semi-admin.ts are the doors
// of lazy screens): the build puts everything the first screen imports into one chunk, so
// whatever this file names is part of the first page load. Each component comes from its own
// module rather than the package barrel (the dev server and the tests then load only what the
// SPA uses), so that moving from `@douyinfe/semi-ui-19` to `@douyinfe/semi-ui` with its React 19
// adapter is a change to this folder only.

// Semi's design tokens (--semi-color-* on body), which the package entry would have loaded.
import '@douyinfe/semi-ui-19/lib/es/_base/base.css';

// Button: Semi's, keeping the focus while it turns busy and back (Button.tsx).
export { Button } from './Button';
export { default as Skeleton } from '@douyinfe/semi-ui-19/lib/es/skeleton';
export { default as Spin } from '@douyinfe/semi-ui-19/lib/es/spin';
export { default as LocaleProvider } from '@douyinfe/semi-ui-19/lib/es/locale/localeProvider';
