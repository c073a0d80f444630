// Semi icons that only lazy screens use, each from its own module (see icons.ts).
export { default as IconDownload } from '@douyinfe/semi-icons/lib/es/icons/IconDownload';
export { default as IconExit } from '@douyinfe/semi-icons/lib/es/icons/IconExit';
export { default as IconFile } from '@douyinfe/semi-icons/lib/es/icons/IconFile';
export { default as IconHistogram } from '@douyinfe/semi-icons/lib/es/icons/IconHistogram';
export { default as IconHome } from '@douyinfe/semi-icons/lib/es/icons/IconHome';
export { default as IconOrderedList } from '@douyinfe/semi-icons/lib/es/icons/IconOrderedList';
export { default as IconRefresh } from '@douyinfe/semi-icons/lib/es/icons/IconRefresh';
export { default as IconSetting } from '@douyinfe/semi-icons/lib/es/icons/IconSetting';
export { default as IconUser } from '@douyinfe/semi-icons/lib/es/icons/IconUser';
export { default as IconUserGroup } from '@douyinfe/semi-icons/lib/es/icons/IconUserGroup';
export { default as IconDelete } from '@douyinfe/semi-icons/lib/es/icons/IconDelete';
export { default as IconEdit } from '@douyinfe/semi-icons/lib/es/icons/IconEdit';
export { default as IconKey } from '@douyinfe/semi-icons/lib/es/icons/IconKey';
export { default as IconPlus } from '@douyinfe/semi-icons/lib/es/icons/IconPlus';
export { default as IconUpload } from '@douyinfe/semi-icons/lib/es/icons/IconUpload';
