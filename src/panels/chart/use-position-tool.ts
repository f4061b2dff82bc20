import { useEffect, useMemo, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { Instrument } from '../../api/contracts/exchanges';
import type { BracketBody } from '../../api/contracts/trading';
import { useBalance } from '../../api/trade/get-balance';
import { useServerSettings } from '../../api/settings/get-server-settings';
import { usePlaceBracket } from '../../api/trade/place-bracket';
import type { ChartEngine, PositionLabels, PositionPlan } from '../../engine';
import { userSettings } from '../../state/user-settings';
import { sayBracketResult } from '../shared/trading/bracket-result';
import { money, show } from '../shared/trading/format';
import { marginBalance } from '../shared/trading/margin-balance';
import { useTradingAccount } from '../shared/trading/use-trading-account';
import { positionBracket, positionFigures, type PositionFigures } from './position-figures';

type Market = { exchange: string; symbol: string };
/** As Order entry's, until the server settings have loaded. */
const DEFAULT_RISK_OPTIONS = [0.5, 1, 1.5, 2];

/** What the levels say on the chart: side and size at the entry, the money at the stop, each target's R. */
export function positionLabels(f: PositionFigures, currency: string): PositionLabels {
  return {
    entry: `${f.side === 'BUY' ? 'Long' : 'Short'} ${show(f.qty)} @ ${f.entry}`,
    stop: `Stop ${f.stop} · −${money(f.riskAmount, currency)}`,
    targets: f.targets.map((t, i) => `TP${i + 1} ${t.price} · ${t.r}R`),
  };
}

/**
 * The chart's position tool (issue 25): on while `active`; the engine lays the position out and
 * reports it, and this sizes it from the user's risk % on the margin balance of the unlocked key (as
 * Order entry does, linear or inverse), labels the levels with it, and places it as a bracket — after
 * the key's once-only custody consent, as Order entry's bracket. A refusal is toasted by the trade
 * action with the server's message; the position stays for another try.
 */
export function usePositionTool(engine: ChartEngine | null, market: Market, instrument: Instrument | undefined) {
  const account = useTradingAccount();
  const { maxRisk } = useSnapshot(userSettings);
  const [active, setActive] = useState(false);
  const [plan, setPlan] = useState<PositionPlan | null>(null);
  // The user's risk % (settings) unless a quick pick of the card chose another for this position.
  const [picked, setPicked] = useState<number | null>(null);
  const riskPercent = picked ?? maxRisk;
  const riskOptions = useServerSettings().data?.riskOptions ?? DEFAULT_RISK_OPTIONS;
  const balance = useBalance(account.tradeKey);
  const tradesHere = account.exchange === market.exchange;
  const margin = instrument ? marginBalance(balance.data, instrument.category === 'inverse' ? 'inverse' : 'linear', instrument.settle) : null;
  const available = margin?.available;
  const figures = useMemo(
    () => (plan && instrument && available !== undefined ? positionFigures({ plan, instrument, balance: available, riskPercent }) : null),
    [plan, instrument, available, riskPercent],
  );

  const sizing = useRef<Sizing>({ instrument, available, riskPercent, currency: margin?.currency ?? '' });
  sizing.current = { instrument, available, riskPercent, currency: margin?.currency ?? '' };
  usePositionEngine(engine, active, sizing, {
    plan: setPlan,
    off: () => setActive(false),
    reset: () => {
      setPlan(null);
      setPicked(null);
    },
  });
  const placing = useBracketPlacing(account, () => setActive(false));
  const place = () => {
    if (figures && !figures.problem && account.tradeKey) placing.place(positionBracket(figures, market.symbol));
  };

  const note = noteOf({ tradesHere, exchange: account.exchange, keysLoading: account.keysLoading, hasKey: account.key !== null, unlocked: account.tradeKey !== null }) ?? figures?.problem ?? null;

  return {
    active,
    toggle: () => setActive((a) => !a),
    stop: () => setActive(false),
    plan,
    figures,
    riskPercent,
    riskOptions,
    pickRisk: setPicked,
    currency: margin?.currency ?? '',
    note,
    canPlace: figures !== null && note === null && !placing.busy,
    busy: placing.busy,
    place,
    apiKey: account.key,
    consentFor: placing.consentFor,
    closeConsent: placing.closeConsent,
    sendConsented: placing.sendConsented,
  };
}

type Sizing = { instrument: Instrument | undefined; available: string | undefined; riskPercent: number; currency: string };

/**
 * The engine's side: the tool on while `active` — after the drawing tools' own effect (the panel calls
 * this after useChartDrawings), so a tool the toolbar chose in the same click neither wins over the
 * position tool nor is turned off by it; the levels' labels from the latest sizing (asked on every
 * paint while a level is dragged: read from a ref); the reported position; Escape turning it off.
 */
function usePositionEngine(engine: ChartEngine | null, active: boolean, sizing: { readonly current: Sizing }, on: { plan: (p: PositionPlan | null) => void; off: () => void; reset: () => void }) {
  const handlers = useRef(on);
  handlers.current = on;
  useEffect(() => {
    if (!engine) return;
    engine.setPositionOptions({
      labels: (p) => {
        const s = sizing.current;
        try {
          const f = s.instrument && s.available !== undefined ? positionFigures({ plan: p, instrument: s.instrument, balance: s.available, riskPercent: s.riskPercent }) : null;
          return f ? positionLabels(f, s.currency) : {};
        } catch {
          // A price the decimal maths refuses (a click far below zero): the engine's own labels then.
          return {};
        }
      },
    });
    const offPlan = engine.on('positionChanged', (p) => handlers.current.plan(p));
    const offTool = engine.on('toolChanged', ({ tool }) => {
      if (tool !== 'position') handlers.current.off();
    });
    return () => {
      offPlan();
      offTool();
    };
  }, [engine, sizing]);

  useEffect(() => {
    if (!engine) return;
    if (active) engine.setTool('position');
    else if (engine.getTool() === 'position') engine.setTool('default');
    if (!active) handlers.current.reset();
  }, [engine, active]);
}

/**
 * Sending a bracket as Order entry does: the key's custody consent first (asked once per key; the
 * bracket waits in `consentFor`), then the result said in a toast and `onPlaced`. A refusal is the
 * trade action's toast (the server's message); nothing else changes.
 */
function useBracketPlacing(account: ReturnType<typeof useTradingAccount>, onPlaced: () => void) {
  const placeB = usePlaceBracket(account.tradeKey);
  const [consentFor, setConsentFor] = useState<BracketBody | null>(null);
  const send = (body: BracketBody) => {
    placeB
      .mutateAsync(body)
      .then((result) => {
        sayBracketResult(result, body, account.tradeKey?.apiKeyId ?? null);
        onPlaced();
      })
      .catch(() => undefined);
  };
  return {
    busy: placeB.isPending,
    place: (body: BracketBody) => (account.key?.serverCustody ? send(body) : setConsentFor(body)),
    consentFor,
    closeConsent: () => setConsentFor(null),
    sendConsented: () => {
      if (consentFor) send(consentFor);
    },
  };
}

/** Why the position cannot be placed from this chart yet (null: it can, as far as the key goes). */
function noteOf(a: { tradesHere: boolean; exchange: string; keysLoading: boolean; hasKey: boolean; unlocked: boolean }): string | null {
  if (!a.tradesHere) return `Trading is on ${a.exchange}: make this chart the active one to place here`;
  if (a.keysLoading) return 'Loading your API keys…';
  if (!a.hasKey) return 'No API key: add one (or a simulator key) in Order entry';
  if (!a.unlocked) return 'Unlock the key in Order entry to place';
  return null;
}

export type PositionToolState = ReturnType<typeof usePositionTool>;
