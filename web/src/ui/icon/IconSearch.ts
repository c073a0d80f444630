import IconSearch from '@douyinfe/semi-icons/lib/es/icons/IconSearch';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconSearch);
