// What other modules may ask of the permission module.
export { permissionsExist } from './store';
