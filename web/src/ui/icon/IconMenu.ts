import IconMenu from '@douyinfe/semi-icons/lib/es/icons/IconMenu';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconMenu);
