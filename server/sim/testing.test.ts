import { describe, expect, it } from 'vitest';
import { shapeOf } from './testing';

// The fixture comparisons rely on shapeOf telling these apart.
describe('shapeOf (fixture shape signatures)', () => {
  it('distinguishes key order, key names and JSON types, and treats values as irrelevant', () => {
    expect(shapeOf({ a: 1, b: 'x' })).toEqual(shapeOf({ a: 2, b: 'y' }));
    expect(shapeOf({ a: 1, b: 'x' })).not.toEqual(shapeOf({ b: 'x', a: 1 }));
    expect(shapeOf({ a: 1 })).not.toEqual(shapeOf({ a: '1' }));
    expect(shapeOf({ a: null })).not.toEqual(shapeOf({ a: {} }));
    expect(shapeOf([[1, 'a'], [2, 'b']])).toEqual(shapeOf([[3, 'c']]));
    expect(shapeOf([1, '2'])).not.toEqual(shapeOf(['1', 2]));
  });
});
