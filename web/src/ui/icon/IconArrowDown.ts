import IconArrowDown from '@douyinfe/semi-icons/lib/es/icons/IconArrowDown';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconArrowDown);
