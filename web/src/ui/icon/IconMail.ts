import IconMail from '@douyinfe/semi-icons/lib/es/icons/IconMail';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconMail);
