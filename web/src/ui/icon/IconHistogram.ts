import IconHistogram from '@douyinfe/semi-icons/lib/es/icons/IconHistogram';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconHistogram);
