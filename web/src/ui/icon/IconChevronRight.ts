import IconChevronRight from '@douyinfe/semi-icons/lib/es/icons/IconChevronRight';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconChevronRight);
