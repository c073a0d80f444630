import IconAlertCircle from '@douyinfe/semi-icons/lib/es/icons/IconAlertCircle';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconAlertCircle);
