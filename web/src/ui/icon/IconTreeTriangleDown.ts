import IconTreeTriangleDown from '@douyinfe/semi-icons/lib/es/icons/IconTreeTriangleDown';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconTreeTriangleDown);
