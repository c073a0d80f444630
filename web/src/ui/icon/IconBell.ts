import IconBell from '@douyinfe/semi-icons/lib/es/icons/IconBell';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconBell);
