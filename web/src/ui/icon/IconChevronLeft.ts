import IconChevronLeft from '@douyinfe/semi-icons/lib/es/icons/IconChevronLeft';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconChevronLeft);
