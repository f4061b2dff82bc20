import type { BracketBody, BracketResult } from '../../../api/contracts/trading';
import { markLeftLive } from '../../../api/trade/left-live';
import { toastError, toastInfo, toastSuccess, toastWarning } from '../../../ui/toast';

/**
 * What the server did with a bracket, said in a toast (Order entry and the chart's position tool):
 * all placed, the entry waiting with its legs planned, or part of it left live after a refused leg
 * (marked in Orders so the trader cancels it).
 */
export function sayBracketResult(result: BracketResult, body: BracketBody, apiKeyId: string | null): void {
  if (result.partial) {
    toastWarning(result.partial.message);
    if (apiKeyId) markLeftLive(apiKeyId, result.partial.live, 'left live by a refused bracket: cancel it');
  } else if (result.planned.length) toastInfo('The entry is placed. Its stop-loss and take-profits go on the moment it fills; the server does it, with or without this page open.');
  else toastSuccess(`Placed: the bracket on ${body.symbol} — entry, stop-loss and ${body.takeProfits.length} take-profit${body.takeProfits.length === 1 ? '' : 's'}`);
  if (body.managed && !result.managed) toastError('The bracket is placed, but the server could not take over its management: manage it yourself');
}
