import IconTickCircle from '@douyinfe/semi-icons/lib/es/icons/IconTickCircle';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconTickCircle);
