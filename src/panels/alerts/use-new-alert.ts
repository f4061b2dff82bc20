import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useCreateAlert } from '../../api/alerts/create-alert';
import { alertSymbolSchema } from '../../api/contracts/alerts';
import type { ExchangeId } from '../../api/contracts/common';
import { chartLinks } from '../../state/chart-links';
import { userSettings } from '../../state/user-settings';
import { toastSuccess } from '../../ui/toast';
import { useNetwork } from '../shared/use-network';
import { formatPrice } from './format';
import { useLivePrice, usePriceFeed } from './live-prices';

/** The market the form starts on: the active chart's, else the user's trading market. */
function useActiveMarket(): { exchange: ExchangeId; symbol: string } {
  const { charts, activeChartId } = useSnapshot(chartLinks);
  const settings = useSnapshot(userSettings);
  const chart = activeChartId ? charts[activeChartId] : undefined;
  return chart ? { exchange: chart.exchange, symbol: chart.symbol } : { exchange: settings.exchangeName, symbol: settings.tradingPair };
}

const validSymbol = (text: string): string | null => {
  const parsed = alertSymbolSchema.safeParse(text);
  return parsed.success ? parsed.data : null;
};

export interface AlertMarketInput {
  exchange: ExchangeId;
  setExchange: (exchange: ExchangeId) => void;
  /** The pair the alert is for (a valid symbol). */
  symbol: string;
  /** What the pair field shows while it is typed in. */
  symbolText: string;
  setSymbolText: (text: string) => void;
  /** Takes the typed pair if it is a valid symbol, else puts the field back. */
  commitSymbol: (text: string) => void;
}

/** The new alert's exchange and pair: they follow the active chart's market, and can be typed over. */
export function useAlertMarketInput(): AlertMarketInput {
  const active = useActiveMarket();
  const [exchange, setExchange] = useState<ExchangeId>(active.exchange);
  const [symbol, setSymbol] = useState(active.symbol);
  const [symbolText, setSymbolText] = useState(active.symbol);

  useEffect(() => {
    setExchange(active.exchange);
    setSymbol(active.symbol);
    setSymbolText(active.symbol);
  }, [active.exchange, active.symbol]);

  const commitSymbol = (text: string) => {
    const next = validSymbol(text);
    if (next) {
      setSymbol(next);
      setSymbolText(next);
    } else setSymbolText(symbol);
  };
  return { exchange, setExchange, symbol, symbolText, setSymbolText, commitSymbol };
}

/**
 * The trigger and note of a new alert on `exchange`/`symbol`, the market's live price, and `submit`:
 * the price at that moment becomes the alert's initial price (a trigger above it waits for a rise).
 */
export function useNewAlert(exchange: ExchangeId, symbol: string) {
  const [trigger, setTrigger] = useState<number | ''>('');
  const [note, setNote] = useState('');
  const feed = usePriceFeed();
  const price = useLivePrice(exchange, symbol);
  const { mutate: create, isPending } = useCreateAlert();
  // The feed's prices are the user's network's (use-alert-monitor.ts): the alert is evaluated on it.
  const network = useNetwork();

  const triggerPrice = typeof trigger === 'number' && trigger > 0 ? trigger : null;
  const sameAsPrice = triggerPrice !== null && price !== undefined && triggerPrice === price;
  const canAdd = triggerPrice !== null && price !== undefined && !sameAsPrice && !isPending;

  const submit = () => {
    if (!canAdd || !feed) return;
    // The price at the moment of adding, not the one rendered a moment ago.
    const initialPrice = feed.last({ exchange, symbol })?.price ?? price;
    if (initialPrice === triggerPrice) return;
    create(
      { exchange, network, symbol, initialPrice, triggerPrice, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: (alert) => {
          toastSuccess(`Alert set: ${alert.symbol} at ${formatPrice(alert.triggerPrice)}`);
          setTrigger('');
          setNote('');
        },
      },
    );
  };
  return { trigger, setTrigger, note, setNote, price, triggerPrice, sameAsPrice, canAdd, isPending, submit };
}
