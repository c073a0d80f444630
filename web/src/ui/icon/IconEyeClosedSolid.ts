import IconEyeClosedSolid from '@douyinfe/semi-icons/lib/es/icons/IconEyeClosedSolid';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconEyeClosedSolid);
