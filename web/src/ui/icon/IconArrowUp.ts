import IconArrowUp from '@douyinfe/semi-icons/lib/es/icons/IconArrowUp';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconArrowUp);
