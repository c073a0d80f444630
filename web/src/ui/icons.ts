// The icons the SPA uses: Semi's, each from its own module (the package entry holds them all),
// each wrapped in a module of ours (ui/icon/, whose package.json declares them free of side
// effects, as Semi's package does its own): an icon only lazy screens use stays in their chunks,
// out of the first page load (the bundler puts a module with side effects that this file
// re-exports in the first screen's chunks).
//
// Semi's icon is a <span role="img" aria-label="search">: its English type name would be the
// accessible name, read by a screen reader beside the Chinese text of a button or a link
// ("search 搜索"), or alone as the name of a control that has no other. Each icon here is
// decorative instead (aria-hidden, no role, no label) unless given a name: an `aria-label` (in
// Chinese) or an `aria-labelledby`, for an icon that means something on its own. A control whose
// only content is an icon is better named itself (aria-label on the button or the link).
export type { IconProps } from './icon/decorative';
export { default as IconAlertCircle } from './icon/IconAlertCircle';
export { default as IconAlertTriangle } from './icon/IconAlertTriangle';
export { default as IconArrowDown } from './icon/IconArrowDown';
export { default as IconArrowUp } from './icon/IconArrowUp';
export { default as IconBell } from './icon/IconBell';
export { default as IconChevronDown } from './icon/IconChevronDown';
export { default as IconChevronLeft } from './icon/IconChevronLeft';
export { default as IconChevronRight } from './icon/IconChevronRight';
export { default as IconClear } from './icon/IconClear';
export { default as IconClose } from './icon/IconClose';
export { default as IconComment } from './icon/IconComment';
export { default as IconDelete } from './icon/IconDelete';
export { default as IconDownload } from './icon/IconDownload';
export { default as IconEdit } from './icon/IconEdit';
export { default as IconExit } from './icon/IconExit';
export { default as IconEyeClosedSolid } from './icon/IconEyeClosedSolid';
export { default as IconEyeOpened } from './icon/IconEyeOpened';
export { default as IconFile } from './icon/IconFile';
export { default as IconHistogram } from './icon/IconHistogram';
export { default as IconHome } from './icon/IconHome';
export { default as IconInfoCircle } from './icon/IconInfoCircle';
export { default as IconKey } from './icon/IconKey';
export { default as IconMail } from './icon/IconMail';
export { default as IconMenu } from './icon/IconMenu';
export { default as IconMinus } from './icon/IconMinus';
export { default as IconOrderedList } from './icon/IconOrderedList';
export { default as IconPlus } from './icon/IconPlus';
export { default as IconRefresh } from './icon/IconRefresh';
export { default as IconSearch } from './icon/IconSearch';
export { default as IconSetting } from './icon/IconSetting';
export { default as IconSidebar } from './icon/IconSidebar';
export { default as IconSpin } from './icon/IconSpin';
export { default as IconStar } from './icon/IconStar';
export { default as IconStarStroked } from './icon/IconStarStroked';
export { default as IconTickCircle } from './icon/IconTickCircle';
export { default as IconTreeTriangleDown } from './icon/IconTreeTriangleDown';
export { default as IconUpload } from './icon/IconUpload';
export { default as IconUser } from './icon/IconUser';
export { default as IconUserGroup } from './icon/IconUserGroup';
