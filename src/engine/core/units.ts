/**
 * Branded units. The engine juggles four coordinate spaces (bar index, unix seconds, price, screen
 * pixels); brands make a mix-up a type error, and conversion names say both spaces (`priceToY`).
 */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** CSS pixels relative to the chart's top-left corner. */
export type Coordinate = Brand<number, 'Coordinate'>;
/** A price in the instrument's quote units. */
export type Price = Brand<number, 'Price'>;
/** Unix time in seconds (the exchanges' candle open time). */
export type UnixTime = Brand<number, 'UnixTime'>;
/** Bar index: 0 is the oldest loaded bar; fractional values lie between bar centres. */
export type Logical = Brand<number, 'Logical'>;

export const coordinate = (v: number): Coordinate => v as Coordinate;
export const price = (v: number): Price => v as Price;
export const unixTime = (v: number): UnixTime => v as UnixTime;
export const logical = (v: number): Logical => v as Logical;
