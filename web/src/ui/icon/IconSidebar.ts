import IconSidebar from '@douyinfe/semi-icons/lib/es/icons/IconSidebar';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconSidebar);
