import IconOrderedList from '@douyinfe/semi-icons/lib/es/icons/IconOrderedList';
import { decorative } from './decorative';

export default /*#__PURE__*/ decorative(IconOrderedList);
