import IconClose from '@douyinfe/semi-icons/lib/es/icons/IconClose';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconClose);
