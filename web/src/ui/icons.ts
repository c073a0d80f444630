// Semi icons of the first screen, each from its own module (the package entry holds them all);
// every icon named here is part of the first page load: the others are in icons-extra.ts.
export { default as IconAlertCircle } from '@douyinfe/semi-icons/lib/es/icons/IconAlertCircle';
export { default as IconAlertTriangle } from '@douyinfe/semi-icons/lib/es/icons/IconAlertTriangle';
export { default as IconArrowUp } from '@douyinfe/semi-icons/lib/es/icons/IconArrowUp';
export { default as IconChevronDown } from '@douyinfe/semi-icons/lib/es/icons/IconChevronDown';
export { default as IconClose } from '@douyinfe/semi-icons/lib/es/icons/IconClose';
export { default as IconComment } from '@douyinfe/semi-icons/lib/es/icons/IconComment';
export { default as IconInfoCircle } from '@douyinfe/semi-icons/lib/es/icons/IconInfoCircle';
export { default as IconMail } from '@douyinfe/semi-icons/lib/es/icons/IconMail';
export { default as IconSpin } from '@douyinfe/semi-icons/lib/es/icons/IconSpin';
export { default as IconTickCircle } from '@douyinfe/semi-icons/lib/es/icons/IconTickCircle';
export { default as IconSearch } from '@douyinfe/semi-icons/lib/es/icons/IconSearch';
