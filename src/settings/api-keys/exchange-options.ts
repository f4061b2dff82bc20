import { EXCHANGE_DISPLAY_NAMES, EXCHANGE_IDS, NETWORKS, type ExchangeId, type Network } from '../../api/contracts/common';

/** Exchange choices with SPEC §3 display names (binance, BitMEX, bybit, okx). */
export const EXCHANGE_SELECT_DATA = EXCHANGE_IDS.map((id) => ({ value: id, label: EXCHANGE_DISPLAY_NAMES[id] }));

export const NETWORK_LABELS: Record<Network, string> = { MAINNET: 'Mainnet', TESTNET: 'Testnet' };
export const NETWORK_SELECT_DATA = NETWORKS.map((n) => ({ value: n, label: NETWORK_LABELS[n] }));

export const exchangeName = (id: ExchangeId): string => EXCHANGE_DISPLAY_NAMES[id];
