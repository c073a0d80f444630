import IconFile from '@douyinfe/semi-icons/lib/es/icons/IconFile';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconFile);
