import IconMinus from '@douyinfe/semi-icons/lib/es/icons/IconMinus';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconMinus);
