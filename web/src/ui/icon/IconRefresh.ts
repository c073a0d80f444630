import IconRefresh from '@douyinfe/semi-icons/lib/es/icons/IconRefresh';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconRefresh);
