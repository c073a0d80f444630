import IconHome from '@douyinfe/semi-icons/lib/es/icons/IconHome';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconHome);
