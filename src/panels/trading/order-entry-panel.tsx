import { Button, Checkbox, Chip, Group, NumberInput, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { ExchangeId } from '../../api/contracts/common';
import { dec, fixed, isZero, str, toNumber } from '../../api/contracts/decimal';
import { notionalOf } from '../../api/contracts/risk';
import { formatUsdDecimal } from '../../ui/usd-decimal';
import type { BracketBody, LadderBody, LeverageBody, MarginModeBody, PlaceOrderBody, Side, TimeInForce } from '../../api/contracts/trading';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { useConfig } from '../../api/config/get-config';
import { useExchangeInfo } from '../../api/exchanges/get-exchange-info';
import { fieldErrors } from '../../api/errors';
import { useServerSettings } from '../../api/settings/get-server-settings';
import { markLeftLive, newClientOrderId, placeBracket, usePositions, useSymbolSettings, placeLadder, placeOrder, temporaryOrder, setLeverage as putLeverage, setMarginMode as putMarginMode, useBalance, useTradeAction } from '../../api/trade/trade-api';
import { orderDraft, orderEntryActions } from '../../state/order-draft';
import { setTradeMode, updateUserSettings, userSettings, type OrderEntryType } from '../../state/user-settings';
import type { PanelProps } from '../shared/panel-props';
import { useMarketTickers } from '../shared/use-market-tickers';
import { AccountGate } from './account-bar';
import { CustodyConsentModal, NO_CUSTODY_TEXT } from './custody-consent';
import { DayLockBanner } from './day-lock-banner';
import { MANAGED_DRAFT_OFF, ManagedBracketFields, managedOf, type ManagedDraft } from './managed-bracket-fields';
import { toastError, toastInfo, toastSuccess, toastWarning } from '../../ui/toast';
import { show } from '../shared/trading/format';
import { isNumberText, preview, qtyProblem, snapPrice, snapQty, stopFromPercent, targetAtR, typingProblem, type EntryTerms } from './order-math';
import { PartBoundary } from '../../ui/part-boundary';
import { marginBalance, placedText, summaryLine, usdOf, wrongSides } from './order-entry-text';
import { useTradingAccount } from '../shared/trading/use-trading-account';

const TYPES: Array<{ value: OrderEntryType; label: string }> = [
  { value: 'bracket-order', label: 'Bracket' },
  { value: 'market', label: 'Market' },
  { value: 'limit', label: 'Limit' },
  { value: 'stop-market', label: 'Stop market' },
  { value: 'stop-limit', label: 'Stop limit' },
  { value: 'take-profit', label: 'Take profit' },
  { value: 'ladder-order', label: 'Ladder' },
];
/** The highest leverage of an exchange when its instrument list does not state the pair's (Binance: per account). */
const DEFAULT_MAX_LEVERAGE: Partial<Record<ExchangeId, number>> = { binance: 125, bybit: 100, okx: 125, bitmex: 100 };

const API_TYPE = { market: 'MARKET', limit: 'LIMIT', 'stop-market': 'STOP_MARKET', 'stop-limit': 'STOP_LIMIT', 'take-profit': 'TAKE_PROFIT' } as const;

/** Order entry (DESIGN §3.4): bracket by default, sized from risk, everything shown before it is sent. */
export function OrderEntryPanel(_props: PanelProps) {
  const account = useTradingAccount();
  return (
    <AccountGate account={account}>
      <OrderEntryBody account={account} />
    </AccountGate>
  );
}

function OrderEntryBody({ account }: { account: ReturnType<typeof useTradingAccount> }) {
  const s = useSnapshot(userSettings);
  const server = useServerSettings();
  const riskOptions = server.data?.riskOptions ?? [0.5, 1, 1.5, 2];
  const stopOptions = server.data?.stopLossOptions ?? [0.5, 1, 2, 3];
  const balance = useBalance(account.tradeKey);
  const { tickers } = useMarketTickers(s.exchangeName as ExchangeId);
  const last = tickers.get(s.tradingPair)?.lastPrice;
  const ladderOn = useFeatureFlag('FF_LADDER_ORDERS');
  const semiAuto = useFeatureFlag('FF_ENABLE_SEMI_AUTO');
  const types = TYPES.filter((t) => t.value !== 'ladder-order' || ladderOn);
  const type = (types.some((t) => t.value === s.orderType) ? s.orderType : 'bracket-order') as OrderEntryType;
  // The pair's terms as the exchange states them (exact text from exchange-info, issue 22); the
  // persisted settings' numbers only until the list has loaded.
  const { data: instruments } = useExchangeInfo(account.exchange as ExchangeId, account.network === 'TESTNET');
  const instrument = instruments?.find((i) => i.symbol === s.tradingPair);
  const terms: EntryTerms = instrument
    ? { category: instrument.category === 'inverse' ? 'inverse' : 'linear', contractSize: instrument.contractValue, stepSize: instrument.stepSize, minQty: instrument.minQty, maxQty: instrument.maxQty, tickSize: instrument.tickSize }
    : {
        category: s.category === 'inverse' ? 'inverse' : 'linear',
        contractSize: str(dec(s.contractValue > 0 ? s.contractValue : 1)),
        stepSize: str(dec(s.stepSize)),
        minQty: str(dec(s.minQty)),
        maxQty: str(dec(s.maxQty)),
        tickSize: str(dec(s.tickSize)),
      };

  const [side, setSide] = useState<Side>('BUY');
  const [price, setPrice] = useState('');
  const [trigger, setTrigger] = useState('');
  const [qty, setQty] = useState('');
  const [sizeMode, setSizeMode] = useState<'risk' | 'qty'>('risk');
  const [riskPercent, setRiskPercent] = useState<number>(s.maxRisk);
  const [stop, setStop] = useState('');
  const [entryKind, setEntryKind] = useState<'MARKET' | 'LIMIT'>('MARKET');
  const [targets, setTargets] = useState<Array<{ price: string; percent: number }>>([{ price: '', percent: 100 }]);
  const [leverage, setLeverage] = useState(10);
  // The account's own leverage and margin mode for the pair (issue 22), read from the exchange with or
  // without a position (the open position's while that read is on its way), which the form follows: the
  // preview's margin and liquidation are the account's — not a remembered 10× Isolated.
  const positions = usePositions(account.tradeKey);
  const symbolSettings = useSymbolSettings(account.tradeKey, s.tradingPair);
  const held = positions.data?.find((x) => x.symbol === s.tradingPair);
  const onAccount = symbolSettings.data ?? (held ? { leverage: held.leverage, marginMode: held.marginMode === 'ISOLATED' ? ('ISOLATED' as const) : ('CROSS' as const) } : null);
  const accountLeverage = onAccount ? toNumber(dec(onAccount.leverage)) : null;
  const accountMode = onAccount?.marginMode ?? null;
  useEffect(() => {
    if (accountLeverage !== null && accountLeverage > 0) setLeverage(accountLeverage);
  }, [accountLeverage]);
  const maxLeverage = instrument?.limits?.maxLeverage ?? DEFAULT_MAX_LEVERAGE[account.exchange as ExchangeId] ?? 125;
  const leverageProblem = !(leverage >= 1) ? 'At least 1×' : leverage > maxLeverage ? `At most ${maxLeverage}× on ${s.tradingPair}` : null;
  const [reduceOnly, setReduceOnly] = useState(false);
  const [postOnly, setPostOnly] = useState(false);
  const [tif, setTif] = useState<TimeInForce>('GTC');
  const [ladderTo, setLadderTo] = useState('');
  const [ladderCount, setLadderCount] = useState(5);
  const [ladderDistribution, setLadderDistribution] = useState<'linear' | 'weighted'>('linear');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [managedDraft, setManagedDraft] = useState<ManagedDraft>(MANAGED_DRAFT_OFF);
  /** A bracket waiting for the key's consent to server custody (the dialog is open). */
  const [consentFor, setConsentFor] = useState<BracketBody | null>(null);
  const config = useConfig();
  const noCustody = config.data?.custody === false;

  // A limit order prepared on the chart (Shift+click with trading from the chart on).
  const draft = useSnapshot(orderDraft);
  useEffect(() => {
    if (!draft.seq || !draft.price || !draft.side) return;
    setSide(draft.side);
    setPrice(draft.price);
    if (userSettings.orderType === 'bracket-order') setEntryKind('LIMIT');
    else updateUserSettings({ orderType: 'limit' });
  }, [draft.seq, draft.price, draft.side]);

  const bracket = type === 'bracket-order';
  const entryPrice = bracket ? (entryKind === 'LIMIT' ? price : last !== undefined ? String(last) : '') : type === 'market' ? (last !== undefined ? String(last) : '') : type === 'limit' ? price : trigger;
  // The money a contract is margined in: the coin for an inverse contract (OKX BTC-USD-SWAP, BitMEX
  // XBTUSD), else the quote — sized from that balance, its risk said in it (issue 22, DESIGN §3.4).
  const margin = marginBalance(balance.data, terms.category, s.settleCurrency);
  const p = useMemo(
    () =>
      bracket && margin && isNumberText(entryPrice)
        ? preview({ terms, side, entry: entryPrice, stop, balance: margin.available, riskPercent, qty: sizeMode === 'qty' && isNumberText(qty) ? qty : null, takeProfits: targets.map((t) => t.price), leverage: leverage >= 1 ? leverage : 1 })
        : null,
    [bracket, margin?.available, entryPrice, stop, riskPercent, qty, sizeMode, targets, leverage, side, s.stepSize, s.tickSize, s.minQty, s.maxQty, s.contractValue, s.category],
  );
  const size = bracket && sizeMode === 'risk' ? (p?.qty ?? '') : qty;
  // The buy / sell hotkeys press this form's button (issue 22): what it would send, through its checks.
  // A hotkey for the other side only turns the form round: its stop and targets were set for this side.
  useEffect(() => {
    orderEntryActions.press = (forSide) => {
      if (forSide !== side) {
        setSide(forSide);
        toastInfo(`Order entry is now on the ${forSide === 'BUY' ? 'buy' : 'sell'} side: check its stop and targets, then press the key again`);
        return;
      }
      void submit();
    };
  });
  useEffect(
    () => () => {
      orderEntryActions.press = null;
    },
    [],
  );

  const applyLeverage = useTradeAction(account.tradeKey, (k, body: LeverageBody) => putLeverage(k, body), 'Unable to set the leverage');
  const applyMode = useTradeAction(account.tradeKey, (k, body: MarginModeBody) => putMarginMode(k, body), 'Unable to set the margin mode');
  // The order's worth in USD, exact (issue 22): linear size × contract × price; inverse USD contracts × contract value.
  const notional = isNumberText(size) && isNumberText(entryPrice) ? notionalOf({ terms, qty: size, price: entryPrice }) : null;
  // What the order is worth, in words: USD; a quanto's value is in its settle coin (BitMEX ETHUSD: XBT).
  const worth = notional === null ? null : instrument?.quanto ? `≈ ${fixed(dec(notional), 8)} ${instrument.settle}` : `≈ $${formatUsdDecimal(notional)}`;
  const place = useTradeAction(account.tradeKey, (k, body: PlaceOrderBody) => placeOrder(k, body), 'The order was refused', (body) =>
    [temporaryOrder(account.exchange as ExchangeId, body)],
  );
  const placeL = useTradeAction(account.tradeKey, (k, body: LadderBody) => placeLadder(k, body), 'The ladder was refused');
  const placeB = useTradeAction(account.tradeKey, (k, body: BracketBody) => placeBracket(k, body), 'The bracket was refused');
  const busy = place.isPending || placeB.isPending || placeL.isPending;
  const ladder = type === 'ladder-order';

  // A stop or target on the wrong side of the entry is said at its own field, as it is typed (issue 22).
  const sideProblems = bracket ? wrongSides({ side, entry: entryPrice, stop, targets: targets.map((t) => t.price) }) : {};

  const submit = async () => {
    const problems: Record<string, string> = { ...sideProblems };
    const sizeProblem = qtyProblem(size, terms);
    // With the stop on the wrong side no size can be computed: that, not the size, is the problem.
    if (sizeProblem && !(bracket && sizeMode === 'risk' && sideProblems['stopLoss.triggerPrice'])) problems.qty = sizeProblem;
    for (const [field, value] of Object.entries({ price, triggerPrice: trigger, 'stopLoss.triggerPrice': stop, to: ladderTo })) {
      if (isNumberText(value) && isZero(dec(value))) problems[field === 'price' && bracket ? 'entry.price' : field] = 'Must be above 0';
    }
    if (bracket) {
      if (!isNumberText(stop)) problems['stopLoss.triggerPrice'] = 'Enter the stop-loss';
      if (entryKind === 'LIMIT' && !isNumberText(price)) problems['entry.price'] = 'Enter the entry price';
      const total = targets.reduce((a, t) => a + Math.round(t.percent * 100), 0);
      if (total !== 10_000) problems.takeProfits = 'Take-profit sizes must add up to 100%';
      targets.forEach((t, i) => {
        if (!isNumberText(t.price)) problems[`takeProfits.${i}.price`] = 'Enter a price';
      });
      if (semiAuto && account.key?.serverCustody) {
        const m = managedOf(managedDraft);
        if (m.problem) problems.managed = m.problem;
      }
    } else if (ladder) {
      if (!isNumberText(price)) problems.price = 'Enter the first price';
      if (!isNumberText(ladderTo)) problems.to = 'Enter the last price';
    } else {
      if ((type === 'limit' || type === 'stop-limit' || type === 'take-profit') && !isNumberText(price)) problems.price = 'Enter a price';
      if (type !== 'market' && type !== 'limit' && !isNumberText(trigger)) problems.triggerPrice = 'Enter a trigger price';
    }
    setErrors(problems);
    if (Object.keys(problems).length) return;
    try {
      if (ladder) {
        const result = await placeL.mutateAsync({ symbol: s.tradingPair, side, qty: size, from: price, to: ladderTo, count: ladderCount, distribution: ladderDistribution, reduceOnly, postOnly, clientOrderId: newClientOrderId() });
        if (result.partial) toastWarning(result.partial);
        else toastSuccess(`Placed: a ladder of ${result.orders.length} ${side === 'BUY' ? 'buy' : 'sell'} orders on ${s.tradingPair}`);
      } else if (bracket) {
        const managed = semiAuto && account.key?.serverCustody ? managedOf(managedDraft).managed : null;
        const body: BracketBody = {
          symbol: s.tradingPair,
          side,
          qty: size,
          entry: entryKind === 'LIMIT' ? { type: 'LIMIT', price } : { type: 'MARKET' },
          stopLoss: { triggerPrice: stop },
          takeProfits: targets.map((t) => ({ price: t.price, qtyPercent: t.percent })),
          clientOrderId: newClientOrderId(),
          ...(managed ? { managed } : {}),
        };
        // Every bracket is guarded by the server: the key's consent first (asked once per key).
        if (!account.key?.serverCustody) {
          setConsentFor(body);
          return;
        }
        await sendBracket(body);
      } else {
        const apiType = API_TYPE[type as keyof typeof API_TYPE];
        const placed = await place.mutateAsync({
          symbol: s.tradingPair,
          side,
          type: apiType,
          clientOrderId: newClientOrderId(),
          qty: size,
          ...(apiType === 'LIMIT' || apiType === 'STOP_LIMIT' || apiType === 'TAKE_PROFIT' ? { price } : {}),
          ...(apiType !== 'MARKET' && apiType !== 'LIMIT' ? { triggerPrice: trigger } : {}),
          reduceOnly,
          postOnly: apiType === 'LIMIT' && postOnly,
          timeInForce: apiType === 'LIMIT' && !postOnly ? tif : 'GTC',
        });
        toastSuccess(placedText(placed));
      }
    } catch (err) {
      showRefusal(err);
    }
  };

  /** The toast says it; the fields it names are marked (a funded-user size limit at the size), nothing typed is lost. */
  const showRefusal = (err: unknown) => {
    const fields = fieldErrors(err);
    const sizeLimit = fields.maxPositionNotional ?? fields.maxRiskPercent ?? fields.dailyLossLimit;
    setErrors(sizeLimit ? { ...fields, qty: sizeLimit } : fields);
  };

  /** Sends a bracket and says what the server did with it: all placed, waiting for the entry, or part of it still live. */
  const sendBracket = async (body: BracketBody) => {
    const result = await placeB.mutateAsync(body);
    if (result.partial) {
      toastWarning(result.partial.message);
      if (account.tradeKey) markLeftLive(account.tradeKey.apiKeyId, result.partial.live, 'left live by a refused bracket: cancel it');
    } else if (result.planned.length) toastInfo('The entry is placed. Its stop-loss and take-profits go on the moment it fills; the server does it, with or without this page open.');
    else toastSuccess(`Placed: the bracket on ${body.symbol} — entry, stop-loss and ${body.takeProfits.length} take-profit${body.takeProfits.length === 1 ? '' : 's'}`);
    if (body.managed && !result.managed) toastError('The bracket is placed, but the server could not take over its management: manage it yourself');
  };

  const priceField = (label: string, value: string, set: (v: string) => void, field: string) => (
    <TextInput size="xs" label={label} value={value} onChange={(e) => set(e.currentTarget.value)} onBlur={() => set(snapPrice(value, terms.tickSize))} error={errors[field] ?? typingProblem(value) ?? sideProblems[field]} inputMode="decimal" />
  );

  return (
    <Stack gap={6} data-testid="order-entry">
      <DayLockBanner tradeKey={account.tradeKey} />
      <Group gap={6} grow>
        <SegmentedControl size="xs" value={side} onChange={(v) => setSide(v as Side)} data={[{ value: 'BUY', label: 'Buy / Long' }, { value: 'SELL', label: 'Sell / Short' }]} color={side === 'BUY' ? 'teal' : 'red'} />
      </Group>
      <Group gap={6} grow>
        <Select size="xs" aria-label="Order type" data={types} value={type} onChange={(v) => v && updateUserSettings({ orderType: v as OrderEntryType })} allowDeselect={false} />
        <Text size="xs" c="dimmed" ta="right">
          {s.tradingPair} · last {last ?? '—'}
        </Text>
      </Group>

      {bracket ? (
        <>
          <Group gap={6} grow>
            <SegmentedControl size="xs" value={entryKind} onChange={(v) => setEntryKind(v as 'MARKET' | 'LIMIT')} data={[{ value: 'MARKET', label: 'Market entry' }, { value: 'LIMIT', label: 'Limit entry' }]} />
          </Group>
          {entryKind === 'LIMIT' ? priceField('Entry price', price, setPrice, 'entry.price') : null}
          {priceField('Stop-loss', stop, setStop, 'stopLoss.triggerPrice')}
          <Chip.Group>
            <Group gap={4}>
              {stopOptions.map((pct) => (
                <Chip key={pct} size="xs" checked={false} onClick={() => isNumberText(entryPrice) && setStop(stopFromPercent(entryPrice, pct, side, terms.tickSize))}>
                  SL {pct}%
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          <Group gap={6} align="flex-end">
            <SegmentedControl size="xs" value={sizeMode} onChange={(v) => setSizeMode(v as 'risk' | 'qty')} data={[{ value: 'risk', label: 'Size from risk' }, { value: 'qty', label: 'Size' }]} />
            {sizeMode === 'risk' ? (
              <Group gap={4}>
                {riskOptions.map((r) => (
                  <Chip key={r} size="xs" checked={riskPercent === r} onChange={() => setRiskPercent(r)}>
                    {r}%
                  </Chip>
                ))}
              </Group>
            ) : null}
          </Group>
        </>
      ) : null}

      {!bracket && type !== 'market' && type !== 'limit' ? priceField('Trigger price', trigger, setTrigger, 'triggerPrice') : null}
      {!bracket && (type === 'limit' || type === 'stop-limit' || type === 'take-profit') ? priceField('Price', price, setPrice, 'price') : null}
      {ladder ? (
        <>
          {priceField('From price', price, setPrice, 'price')}
          {priceField('To price', ladderTo, setLadderTo, 'to')}
          <Group gap={6} align="flex-end">
            <NumberInput size="xs" w={90} label="Orders" min={2} max={50} value={ladderCount} onChange={(v) => setLadderCount(Math.max(2, Math.min(50, typeof v === 'number' ? Math.trunc(v) : 2)))} error={errors.count} />
            <SegmentedControl size="xs" value={ladderDistribution} onChange={(v) => setLadderDistribution(v as 'linear' | 'weighted')} data={[{ value: 'linear', label: 'Equal sizes' }, { value: 'weighted', label: 'Growing' }]} />
          </Group>
        </>
      ) : null}
      {!bracket || sizeMode === 'qty' ? (
        <TextInput
          size="xs"
          label={`Size (${terms.category === 'inverse' ? 'USD contracts' : `step ${terms.stepSize}`})`}
          value={qty}
          onChange={(e) => setQty(e.currentTarget.value)}
          onBlur={() => setQty(snapQty(qty, terms.stepSize))}
          error={errors.qty ?? typingProblem(qty)}
          inputMode="decimal"
          description={worth ?? undefined}
        />
      ) : (
        <Text size="xs" data-testid="risk-size">
          Size {p ? show(p.qty) : '—'}
          {worth !== null ? ` ${worth}` : ''}
          {p?.clamped === 'min' ? ' (the minimum: more than the chosen risk)' : p?.clamped === 'max' ? ' (capped at the maximum)' : ''}
          {terms.category === 'inverse' && margin && isZero(dec(margin.available)) ? <Text span c="orange"> · No {margin.currency} to margin this coin-margined contract</Text> : null}
          {errors.qty ? <Text span c="red"> · {errors.qty}</Text> : null}
        </Text>
      )}

      {bracket ? (
        <Stack gap={4}>
          {targets.map((t, i) => (
            <Group key={i} gap={4} align="flex-end" wrap="nowrap">
              {priceField(`Take-profit ${i + 1}`, t.price, (v) => setTargets((list) => list.map((x, j) => (j === i ? { ...x, price: v } : x))), `takeProfits.${i}.price`)}
              <NumberInput size="xs" label="%" w={70} min={1} max={100} value={t.percent} onChange={(v) => setTargets((list) => list.map((x, j) => (j === i ? { ...x, percent: typeof v === 'number' ? v : 0 } : x)))} />
              <Button size="compact-xs" variant="subtle" onClick={() => isNumberText(entryPrice) && isNumberText(stop) && setTargets((list) => list.map((x, j) => (j === i ? { ...x, price: targetAtR(entryPrice, stop, i + 2, side, terms.tickSize) } : x)))}>
                {i + 2}R
              </Button>
            </Group>
          ))}
          {errors.takeProfits ? <Text size="xs" c="red">{errors.takeProfits}</Text> : null}
          {semiAuto && account.key ? <ManagedBracketFields apiKey={account.key} value={managedDraft} onChange={setManagedDraft} error={errors.managed} /> : null}
          <Group gap={4}>
            <Button size="compact-xs" variant="default" disabled={targets.length >= 5} onClick={() => setTargets((list) => [...list.map((x) => ({ ...x, percent: Math.floor(100 / (list.length + 1)) })), { price: '', percent: 100 - Math.floor(100 / (list.length + 1)) * list.length }])}>
              Add take-profit
            </Button>
            <Button size="compact-xs" variant="default" disabled={targets.length <= 1} onClick={() => setTargets((list) => list.slice(0, -1).map((x, _j, arr) => ({ ...x, percent: Math.floor(100 / arr.length) })).map((x, j, arr) => (j === arr.length - 1 ? { ...x, percent: 100 - Math.floor(100 / arr.length) * (arr.length - 1) } : x)))}>
              Remove
            </Button>
            <NumberInput size="xs" w={90} label="Leverage" min={1} max={maxLeverage} clampBehavior="none" value={leverage} onChange={(v) => setLeverage(typeof v === 'number' ? v : 0)} error={leverageProblem ?? undefined} />
          </Group>
        </Stack>
      ) : (
        <Group gap={8}>
          <Chip size="xs" checked={reduceOnly} onChange={setReduceOnly}>
            Reduce-only
          </Chip>
          {type === 'limit' || ladder ? (
            <Chip size="xs" checked={postOnly} onChange={setPostOnly}>
              Post-only
            </Chip>
          ) : null}
          {type === 'limit' && !postOnly ? (
            <SegmentedControl size="xs" value={tif} onChange={(v) => setTif(v as TimeInForce)} data={['GTC', 'IOC', 'FOK']} aria-label="Time in force" />
          ) : null}
        </Group>
      )}

      <Group gap={6} align="flex-end">
        <SegmentedControl
          size="xs"
          aria-label="Margin mode"
          value={accountMode ?? (s.leverageMode === 'CROSSED' ? 'CROSS' : s.leverageMode)}
          onChange={(v) => {
            updateUserSettings({ leverageMode: v as 'CROSS' | 'ISOLATED' });
            applyMode.mutate({ symbol: s.tradingPair, marginMode: v as 'CROSS' | 'ISOLATED' });
          }}
          data={[{ value: 'CROSS', label: 'Cross' }, { value: 'ISOLATED', label: 'Isolated' }]}
        />
        {!bracket ? <NumberInput size="xs" w={90} label="Leverage" min={1} max={maxLeverage} clampBehavior="none" value={leverage} onChange={(v) => setLeverage(typeof v === 'number' ? v : 0)} error={leverageProblem ?? undefined} /> : null}
        <Button size="compact-xs" variant="default" disabled={leverageProblem !== null} loading={applyLeverage.isPending} onClick={() => applyLeverage.mutate({ symbol: s.tradingPair, leverage })}>
          Set {leverage}×
        </Button>
        {onAccount ? (
          <Text size="xs" c="dimmed" data-testid="account-leverage">
            On the account: {show(onAccount.leverage)}× {accountMode === 'ISOLATED' ? 'isolated' : 'cross'}
          </Text>
        ) : null}
      </Group>

      {bracket && p ? (
        <PartBoundary label="The preview">
        <Table fz="xs" withRowBorders={false} verticalSpacing={1} data-testid="order-preview">
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>At risk</Table.Td>
              <Table.Td ta="right" data-testid="risk-amount">
                {show(p.riskAmount, terms.category === 'inverse' ? 8 : 4)} {margin?.currency}
                {terms.category === 'inverse' && isNumberText(entryPrice) ? ` ≈ $${usdOf(p.riskAmount, entryPrice)}` : ''}
              </Table.Td>
            </Table.Tr>
            {p.rMultiples.map((r, i) => (
              <Table.Tr key={i}>
                <Table.Td>Take-profit {i + 1}</Table.Td>
                <Table.Td ta="right">{r}R</Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td>Margin at {leverage}×</Table.Td>
              <Table.Td ta="right">{show(p.margin, 4)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>Est. liquidation</Table.Td>
              <Table.Td ta="right">{show(p.liquidation, 2)}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        </PartBoundary>
      ) : null}

      <Checkbox size="xs" label="Shift+click on the chart prepares a limit order here" checked={s.tradeMode} onChange={(e) => setTradeMode(e.currentTarget.checked)} />

      {/* The action and the risk it carries stay in view however far the form scrolls (issue 22: 1280×720). */}
      <Stack gap={4} pt={4} pb={2} data-testid="order-footer" style={{ position: 'sticky', bottom: 0, zIndex: 2, background: 'var(--mantine-color-body)', borderTop: '1px solid var(--mantine-color-default-border)' }}>
        {bracket && noCustody ? (
          <Text size="xs" c="orange" data-testid="no-custody">
            {NO_CUSTODY_TEXT}
          </Text>
        ) : null}
        <PartBoundary label="The summary">
          <Text size="xs" c="dimmed" data-testid="order-summary" truncate>
            {summaryLine({ bracket, preview: p, currency: margin?.currency ?? '', riskPercent, worth, sizeMode })}
          </Text>
        </PartBoundary>
        <Button size="sm" color={side === 'BUY' ? 'teal' : 'red'} loading={busy} disabled={bracket && noCustody} onClick={() => void submit()} data-testid="place-order">
          <PartBoundary label="The label">
            {side === 'BUY' ? 'Buy' : 'Sell'} {show(size)} {s.tradingPair}
            {ladder ? ` in ${ladderCount} orders` : ''}
          </PartBoundary>
        </Button>
      </Stack>
      {account.key ? (
        <CustodyConsentModal
          apiKey={account.key}
          opened={consentFor !== null}
          onClose={() => setConsentFor(null)}
          onAllowed={() => {
            const body = consentFor;
            if (body) sendBracket(body).catch(showRefusal);
          }}
        />
      ) : null}
    </Stack>
  );
}
