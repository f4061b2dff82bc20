export { acquireOrderFlow, openOrderFlowCount, orderFlowKeyId } from './registry';
export { crc32 } from './crc32';
export type { BookLevel, BookView, OrderFlowFeed, OrderFlowHandle, OrderFlowKey, OrderFlowOptions, OrderFlowStatus, TradePrint } from './types';
