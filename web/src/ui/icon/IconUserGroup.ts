import IconUserGroup from '@douyinfe/semi-icons/lib/es/icons/IconUserGroup';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconUserGroup);
