import { useSnapshot } from 'valtio';
import type { Network } from '../../api/contracts/common';
import { userSettings } from '../../state/user-settings';

/** The network the user's charts, prices and trading show (SPEC §3 `useTestnet`): what an alert set now is evaluated on. */
export const networkOf = (useTestnet: boolean): Network => (useTestnet ? 'TESTNET' : 'MAINNET');

export function useNetwork(): Network {
  return networkOf(useSnapshot(userSettings).useTestnet);
}
