import IconClear from '@douyinfe/semi-icons/lib/es/icons/IconClear';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconClear);
