// The only door to Semi Design. Components are re-exported one by one (named exports keep
// tree-shaking intact) so that moving from `@douyinfe/semi-ui-19` to `@douyinfe/semi-ui`
// with its React 19 adapter is a change to this folder only.
export {
  Banner,
  Button,
  Carousel,
  Input,
  Layout,
  Nav,
  Skeleton,
  Spin,
  Tag,
} from '@douyinfe/semi-ui-19';
