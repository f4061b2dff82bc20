import { useMemo, useState } from 'react';
import type { FieldPath, UseFormReturn } from 'react-hook-form';
import type { ExchangeId } from '../../../api/contracts/common';
import type { BracketBody } from '../../../api/contracts/trading';
import { fieldErrors } from '../../../api/errors';
import { useQuietPlaceBracket } from '../../../api/trade/place-bracket';
import { useQuietPlaceLadder } from '../../../api/trade/place-ladder';
import { useQuietPlaceOrder } from '../../../api/trade/place-order';
import type { Sending } from '../../../api/trade/use-trade-action';
import { toastSuccess, toastWarning } from '../../../ui/toast';
import { sayBracketResult } from '../../shared/trading/bracket-result';
import type { useTradingAccount } from '../../shared/trading/use-trading-account';
import { managedOf } from '../managed-bracket-fields';
import { placedText } from '../order-entry-text';
import { bracketBody, ladderBody, singleOrderBody } from './order-bodies';
import type { OrderEntryContext, OrderEntryValues } from './order-entry-form';

type Form = UseFormReturn<OrderEntryValues, { current: OrderEntryContext | null }>;

/**
 * Sending what the form holds, once its checks pass: a ladder, a bracket (first the key's consent to
 * server custody, asked once per key: the bracket waits in `consentFor` while the dialog is open) or a
 * single order, each said in a toast. A refusal is said by the toast; the fields it names are marked.
 */
export function useOrderSubmit(form: Form, account: ReturnType<typeof useTradingAccount>, ctx: OrderEntryContext & { symbol: string }) {
  const { type, symbol, size, managedOn } = ctx;
  // Quiet: the form is not drawn again while an order is sent; the button reads `sending` (issue 25 §1).
  const place = useQuietPlaceOrder(account.tradeKey, account.exchange as ExchangeId);
  const placeL = useQuietPlaceLadder(account.tradeKey);
  const placeB = useQuietPlaceBracket(account.tradeKey);
  const sending = useMemo<readonly Sending[]>(() => [place, placeB, placeL], [place, placeB, placeL]);
  const [consentFor, setConsentFor] = useState<BracketBody | null>(null);

  /** The toast says it; the fields it names are marked (a funded-user size limit at the size), nothing typed is lost. */
  const showRefusal = (err: unknown) => {
    const fields = fieldErrors(err);
    const sizeLimit = fields.maxPositionNotional ?? fields.maxRiskPercent ?? fields.dailyLossLimit;
    form.clearErrors();
    for (const [name, message] of Object.entries(sizeLimit ? { ...fields, qty: sizeLimit } : fields)) form.setError(name as FieldPath<OrderEntryValues>, { type: 'server', message });
  };

  /** Sends a bracket and says what the server did with it: all placed, waiting for the entry, or part of it still live. */
  const sendBracket = async (body: BracketBody) => {
    sayBracketResult(await placeB.mutateAsync(body), body, account.tradeKey?.apiKeyId ?? null);
  };

  const send = async (v: OrderEntryValues) => {
    try {
      if (type === 'ladder-order') {
        const result = await placeL.mutateAsync(ladderBody(v, symbol, size));
        if (result.partial) toastWarning(result.partial);
        else toastSuccess(`Placed: a ladder of ${result.orders.length} ${v.side === 'BUY' ? 'buy' : 'sell'} orders on ${symbol}`);
      } else if (type === 'bracket-order') {
        const body = bracketBody(v, symbol, size, managedOn ? managedOf(v.managed).managed : null);
        // Every bracket is guarded by the server: the key's consent first (asked once per key).
        if (!account.key?.serverCustody) {
          setConsentFor(body);
          return;
        }
        await sendBracket(body);
      } else {
        toastSuccess(placedText(await place.mutateAsync(singleOrderBody(v, type, symbol, size))));
      }
    } catch (err) {
      showRefusal(err);
    }
  };

  return {
    submit: form.handleSubmit(send),
    /** The actions whose sending the button shows (`useActionsPending`). */
    sending,
    consentFor,
    closeConsent: () => setConsentFor(null),
    /** The key's owner allowed custody: the bracket that asked goes out. */
    sendConsented: () => {
      const body = consentFor;
      if (body) sendBracket(body).catch(showRefusal);
    },
  };
}

export type OrderSubmit = ReturnType<typeof useOrderSubmit>;
