export { contractMessages } from './contract-messages.js';
export { invalidSettingOf } from './invalid-setting-of.js';
export {
  type CorruptionKind,
  type SessionStoreContractCase,
  type SessionStoreContractOptions,
  sessionStoreContract,
} from './session-store-contract.js';
