import IconAlertTriangle from '@douyinfe/semi-icons/lib/es/icons/IconAlertTriangle';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconAlertTriangle);
