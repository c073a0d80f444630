import IconUser from '@douyinfe/semi-icons/lib/es/icons/IconUser';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconUser);
