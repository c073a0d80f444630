// The admin back office's door to Semi: the heavy components (Table ≈ +100 KiB gzip, Tree,
// TreeSelect, Select, DatePicker, SideSheet, Modal…) that only admin screens use. Only lazy
// admin chunks import this file, so none of it reaches the public or member first screens.
// Each component comes from its own module, as in `semi.ts`.
export { default as DatePicker } from '@douyinfe/semi-ui-19/lib/es/datePicker';
export { default as InputNumber } from '@douyinfe/semi-ui-19/lib/es/inputNumber';
export { default as Layout } from '@douyinfe/semi-ui-19/lib/es/layout';
// Modal: Semi's, its close button named 关闭 (Modal.tsx).
export { Modal } from './Modal';
export { default as Nav } from '@douyinfe/semi-ui-19/lib/es/navigation';
export { NavCollapseButton } from './NavCollapseButton';
// Select: Semi's, the box typed in to narrow its list named as the Select is (Select.tsx).
export { Select } from './Select';
// SideSheet: Semi's, closed by Escape, its ✕ named 关闭, the focus back to its opener (SideSheet.tsx).
export { SideSheet } from './SideSheet';
export { default as Table } from '@douyinfe/semi-ui-19/lib/es/table';
export { default as TextArea } from '@douyinfe/semi-ui-19/lib/es/input/textarea';
export { default as Tree } from '@douyinfe/semi-ui-19/lib/es/tree';
export { default as TreeSelect } from '@douyinfe/semi-ui-19/lib/es/treeSelect';
export type { ColumnProps } from '@douyinfe/semi-ui-19/lib/es/table/interface';
export type { TreeNodeData } from '@douyinfe/semi-ui-19/lib/es/tree/interface';
