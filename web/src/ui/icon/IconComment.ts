import IconComment from '@douyinfe/semi-icons/lib/es/icons/IconComment';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconComment);
