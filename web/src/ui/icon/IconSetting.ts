import IconSetting from '@douyinfe/semi-icons/lib/es/icons/IconSetting';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconSetting);
