// Semi illustrations (about 3.5 KiB gzip each): import only where a screen shows one.
export { IllustrationConstruction } from '@douyinfe/semi-illustrations';
export { IllustrationFailure } from '@douyinfe/semi-illustrations';
export { IllustrationNoContent } from '@douyinfe/semi-illustrations';
export { IllustrationNotFound } from '@douyinfe/semi-illustrations';
