// What other modules may ask of the comment module: the count of the dashboard. (The comments
// of items deleted for good go through `contentChanges`: purges.ts.)
export { countComments } from './store';
