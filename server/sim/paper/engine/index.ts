/** The paper matching engine's public surface (venues import from here only). See ../README.md. */
export { PaperEngine, type PaperEngineOptions } from './engine';
export * from './types';
export type { AccountSnapshot, BalanceRecord, ChangeSet, FillRecord, OrderRecord, PositionRecord, SettingRecord } from './records';
export type { AccountReason, BalanceView, EngineEvent, EngineListener, OrderExec, PositionView } from './events';
export { decimalsOf, exactFixed, fixed, formatFixed, numberToDecimal, parseFixed, trimZeros } from './decimal';
