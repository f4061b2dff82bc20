/**
 * The four exchanges' instrument-list parsers now live in their exchange folders
 * (`server/exchanges/<exchange>/instruments.ts`, issue 23 §1), read through the registry's descriptors
 * (`EXCHANGES[id].market`); their names stay importable from here for the services that read them.
 */
export { UpstreamFormatError } from '../exchanges/market';
export { parseBinanceInstruments } from '../exchanges/binance/instruments';
export { parseBybitInstrumentsPage } from '../exchanges/bybit/instruments';
export { parseBitmexInstruments } from '../exchanges/bitmex/instruments';
export { okxSymbol, parseOkxInstruments } from '../exchanges/okx/instruments';
