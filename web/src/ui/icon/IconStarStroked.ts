import IconStarStroked from '@douyinfe/semi-icons/lib/es/icons/IconStarStroked';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconStarStroked);
