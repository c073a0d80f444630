// What other modules may ask of the language module.
export { enabledLanguages } from './store';
