import { describe, expect, it } from 'vitest';
import { isAlertTriggered, triggeredAlerts } from './alerts';

describe('isAlertTriggered', () => {
  const rising = { initialPrice: 100, triggerPrice: 110 };
  const falling = { initialPrice: 100, triggerPrice: 90 };
  const level = { initialPrice: 100, triggerPrice: 100 };

  it('initial below trigger: fires when the price reaches or passes the trigger upwards', () => {
    expect(isAlertTriggered(rising, 109.99)).toBe(false);
    expect(isAlertTriggered(rising, 110)).toBe(true);
    expect(isAlertTriggered(rising, 125)).toBe(true);
    expect(isAlertTriggered(rising, 50)).toBe(false);
  });

  it('initial above trigger: fires when the price reaches or passes the trigger downwards', () => {
    expect(isAlertTriggered(falling, 90.01)).toBe(false);
    expect(isAlertTriggered(falling, 90)).toBe(true);
    expect(isAlertTriggered(falling, 80)).toBe(true);
    expect(isAlertTriggered(falling, 150)).toBe(false);
  });

  it('initial equal to trigger: fires only at exactly the trigger', () => {
    expect(isAlertTriggered(level, 100)).toBe(true);
    expect(isAlertTriggered(level, 100.5)).toBe(false);
    expect(isAlertTriggered(level, 99.5)).toBe(false);
  });

  it('never fires on a non-finite price', () => {
    expect(isAlertTriggered(rising, Number.NaN)).toBe(false);
    expect(isAlertTriggered(falling, Number.NEGATIVE_INFINITY)).toBe(false);
  });

  it('triggeredAlerts keeps only the fired ones, in order', () => {
    const alerts = [{ id: 'a', ...rising }, { id: 'b', ...falling }, { id: 'c', initialPrice: 100, triggerPrice: 105 }];
    expect(triggeredAlerts(alerts, 112).map((a) => a.id)).toEqual(['a', 'c']);
  });
});
