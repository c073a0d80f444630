import IconInfoCircle from '@douyinfe/semi-icons/lib/es/icons/IconInfoCircle';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconInfoCircle);
