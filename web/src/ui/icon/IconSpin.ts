import IconSpin from '@douyinfe/semi-icons/lib/es/icons/IconSpin';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconSpin);
