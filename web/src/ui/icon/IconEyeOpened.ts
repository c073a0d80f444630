import IconEyeOpened from '@douyinfe/semi-icons/lib/es/icons/IconEyeOpened';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconEyeOpened);
