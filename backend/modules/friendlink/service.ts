// What other modules may ask of the friendlink module.
export { countFriendlinks } from './store';
