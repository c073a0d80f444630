import IconDownload from '@douyinfe/semi-icons/lib/es/icons/IconDownload';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconDownload);
