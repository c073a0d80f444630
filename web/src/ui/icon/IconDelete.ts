import IconDelete from '@douyinfe/semi-icons/lib/es/icons/IconDelete';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconDelete);
