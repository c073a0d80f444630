import IconExit from '@douyinfe/semi-icons/lib/es/icons/IconExit';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconExit);
