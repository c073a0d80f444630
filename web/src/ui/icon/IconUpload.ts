import IconUpload from '@douyinfe/semi-icons/lib/es/icons/IconUpload';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconUpload);
