// Semi icons used by the SPA, each from its own module (the package entry holds them all).
// Every icon named here is part of the first page load (a few KiB for all of them).
export { default as IconAlertCircle } from '@douyinfe/semi-icons/lib/es/icons/IconAlertCircle';
export { default as IconAlertTriangle } from '@douyinfe/semi-icons/lib/es/icons/IconAlertTriangle';
export { default as IconArrowUp } from '@douyinfe/semi-icons/lib/es/icons/IconArrowUp';
export { default as IconChevronDown } from '@douyinfe/semi-icons/lib/es/icons/IconChevronDown';
export { default as IconClose } from '@douyinfe/semi-icons/lib/es/icons/IconClose';
export { default as IconComment } from '@douyinfe/semi-icons/lib/es/icons/IconComment';
export { default as IconDelete } from '@douyinfe/semi-icons/lib/es/icons/IconDelete';
export { default as IconDownload } from '@douyinfe/semi-icons/lib/es/icons/IconDownload';
export { default as IconEdit } from '@douyinfe/semi-icons/lib/es/icons/IconEdit';
export { default as IconExit } from '@douyinfe/semi-icons/lib/es/icons/IconExit';
export { default as IconFile } from '@douyinfe/semi-icons/lib/es/icons/IconFile';
export { default as IconHistogram } from '@douyinfe/semi-icons/lib/es/icons/IconHistogram';
export { default as IconHome } from '@douyinfe/semi-icons/lib/es/icons/IconHome';
export { default as IconInfoCircle } from '@douyinfe/semi-icons/lib/es/icons/IconInfoCircle';
export { default as IconKey } from '@douyinfe/semi-icons/lib/es/icons/IconKey';
export { default as IconMail } from '@douyinfe/semi-icons/lib/es/icons/IconMail';
export { default as IconOrderedList } from '@douyinfe/semi-icons/lib/es/icons/IconOrderedList';
export { default as IconPlus } from '@douyinfe/semi-icons/lib/es/icons/IconPlus';
export { default as IconRefresh } from '@douyinfe/semi-icons/lib/es/icons/IconRefresh';
export { default as IconSearch } from '@douyinfe/semi-icons/lib/es/icons/IconSearch';
export { default as IconSetting } from '@douyinfe/semi-icons/lib/es/icons/IconSetting';
export { default as IconSpin } from '@douyinfe/semi-icons/lib/es/icons/IconSpin';
export { default as IconTickCircle } from '@douyinfe/semi-icons/lib/es/icons/IconTickCircle';
export { default as IconUpload } from '@douyinfe/semi-icons/lib/es/icons/IconUpload';
export { default as IconUser } from '@douyinfe/semi-icons/lib/es/icons/IconUser';
export { default as IconUserGroup } from '@douyinfe/semi-icons/lib/es/icons/IconUserGroup';
