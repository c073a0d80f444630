import IconEdit from '@douyinfe/semi-icons/lib/es/icons/IconEdit';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconEdit);
