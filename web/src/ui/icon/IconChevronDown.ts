import IconChevronDown from '@douyinfe/semi-icons/lib/es/icons/IconChevronDown';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconChevronDown);
