export { StoreConflictError } from './store-conflict-error.js';
export { StoreError, type StoreOperation } from './store-error.js';
