import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ChartIndicator } from '../../state/chart-indicators';
import { IndicatorDialog } from './indicator-dialog';

const bb: ChartIndicator = { id: 'bb', kind: 'bollinger', period: 20, stdDev: 2, source: 'close', color: '#2962ff' };

function open(indicator: ChartIndicator, isNew = false) {
  const onSave = vi.fn();
  const onRemove = vi.fn();
  render(
    <MantineProvider>
      <IndicatorDialog indicator={indicator} isNew={isNew} onSave={onSave} onRemove={onRemove} onClose={() => {}} />
    </MantineProvider>,
  );
  return { onSave, onRemove };
}

describe('IndicatorDialog', () => {
  it('says at the field what is wrong and saves nothing until it is fixed', () => {
    const { onSave } = open(bb);
    const period = screen.getByRole('textbox', { name: /Period/ });
    fireEvent.change(period, { target: { value: '0' } });
    expect(screen.getByText('Period must be a whole number of bars from 1 to 1000')).toBeVisible();
    expect(period).toHaveAttribute('aria-invalid', 'true');
    fireEvent.change(screen.getByRole('textbox', { name: /Band width/ }), { target: { value: '12' } });
    expect(screen.getByText('Band width must be from 0.1 to 10 standard deviations')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(period, { target: { value: '50' } });
    fireEvent.change(screen.getByRole('textbox', { name: /Band width/ }), { target: { value: '2.5' } });
    expect(screen.queryByText(/Period must be/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith({ ...bb, period: 50, stdDev: 2.5 });
  });

  it('asks for no period for VWAP, offers Remove only when editing', () => {
    const { onSave } = open({ id: 'v', kind: 'vwap', source: 'hlc3', color: '#ff9800' }, true);
    expect(screen.queryByRole('textbox', { name: /Period/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(onSave).toHaveBeenCalledWith({ id: 'v', kind: 'vwap', source: 'hlc3', color: '#ff9800' });
  });
});
