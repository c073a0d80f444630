// The admin back office's door to Semi: the heavy components (Table ≈ +100 KiB gzip, Tree,
// TreeSelect, Select, DatePicker, SideSheet, Modal…) that only admin screens use. Only lazy
// admin chunks import this file, so none of it reaches the public or member first screens.
export {
  Checkbox,
  DatePicker,
  InputNumber,
  Modal,
  Select,
  SideSheet,
  Switch,
  Table,
  TextArea,
  Tree,
  TreeSelect,
} from '@douyinfe/semi-ui-19';
export type { ColumnProps, RowSelectionProps } from '@douyinfe/semi-ui-19/lib/es/table/interface';
export type { TreeNodeData } from '@douyinfe/semi-ui-19/lib/es/tree/interface';
