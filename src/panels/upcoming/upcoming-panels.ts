/**
 * What the trading panels still to come will hold. Each shows this until its own panel replaces the
 * registry entry, so the layout (where traders place them) can be arranged and saved today.
 */
export interface UpcomingPanelText {
  summary: string;
  points: string[];
}

export const UPCOMING_PANELS: Readonly<Record<string, UpcomingPanelText>> = {
  'order-entry': {
    summary: 'Place orders on the selected API key for the pair of the active chart.',
    points: [
      'Market, limit, stop-market, stop-limit and take-profit orders',
      'Bracket orders: entry, stop-loss and one or more take-profits',
      'Size from your risk per trade (max risk %) and the stop distance',
      'Quick picks from your risk and stop-loss options',
    ],
  },
  positions: {
    summary: 'Your open positions on the exchange of the selected API key.',
    points: ['Size, entry, mark, liquidation and break-even price', 'Unrealised and realised PnL', 'Close or reduce a position, set leverage and margin mode'],
  },
  orders: {
    summary: 'Your open and recent orders.',
    points: ['Status, type, side, price, trigger and filled quantity', 'Amend or cancel an order, or cancel all', 'Order history'],
  },
  balance: {
    summary: 'Your wallet on the exchange of the selected API key.',
    points: ['Total or available balance (your choice in settings)', 'In the balance currency, with margin in use', 'Hidden behind a mask when you turn masking on'],
  },
  alerts: {
    summary: 'Price alerts for your pairs.',
    points: ['Set a trigger price from the chart or here', 'Your alert sound plays when the price crosses it', 'Every alert is a line on its chart'],
  },
};
