import IconStar from '@douyinfe/semi-icons/lib/es/icons/IconStar';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconStar);
