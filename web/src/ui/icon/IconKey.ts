import IconKey from '@douyinfe/semi-icons/lib/es/icons/IconKey';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconKey);
