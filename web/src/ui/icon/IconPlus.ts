import IconPlus from '@douyinfe/semi-icons/lib/es/icons/IconPlus';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconPlus);
