// The only door to Semi Design. Each component comes from its own module rather than the
// package barrel (the dev server and the tests then load only what the SPA uses), so that
// moving from `@douyinfe/semi-ui-19` to `@douyinfe/semi-ui` with its React 19 adapter is a
// change to this folder only.

// Semi's design tokens (--semi-color-* on body), which the package entry would have loaded.
import '@douyinfe/semi-ui-19/lib/es/_base/base.css';

export { default as Banner } from '@douyinfe/semi-ui-19/lib/es/banner';
export { default as Button } from '@douyinfe/semi-ui-19/lib/es/button';
export { default as Carousel } from '@douyinfe/semi-ui-19/lib/es/carousel';
export { default as Input } from '@douyinfe/semi-ui-19/lib/es/input';
export { default as Layout } from '@douyinfe/semi-ui-19/lib/es/layout';
export { default as Nav } from '@douyinfe/semi-ui-19/lib/es/navigation';
export { default as Skeleton } from '@douyinfe/semi-ui-19/lib/es/skeleton';
export { default as Spin } from '@douyinfe/semi-ui-19/lib/es/spin';
export { default as Tag } from '@douyinfe/semi-ui-19/lib/es/tag';
export { default as LocaleProvider } from '@douyinfe/semi-ui-19/lib/es/locale/localeProvider';
