import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CandleInterval } from '../../api/contracts/market';
import { defaultUserSettings, userSettings } from '../../state/user-settings';
import { IntervalPicker } from './interval-picker';

function Picker({ initial }: { initial: CandleInterval }) {
  const [value, setValue] = useState<CandleInterval>(initial);
  return <IntervalPicker value={value} onChange={setValue} />;
}

const renderPicker = (initial: CandleInterval = '5m') =>
  render(
    <MantineProvider>
      <Picker initial={initial} />
    </MantineProvider>,
  );

const favouriteButtons = () => within(screen.getByRole('group', { name: 'Favourite intervals' })).getAllByRole('button').map((b) => b.textContent);

afterEach(() => {
  userSettings.favoriteIntervals = defaultUserSettings().favoriteIntervals;
});

describe('IntervalPicker', () => {
  it('offers the favourite intervals as buttons (SPEC §9 defaults) and lists them first', async () => {
    renderPicker();
    expect(favouriteButtons()).toEqual(['1m', '3m', '5m', '15m', '30m']);
    fireEvent.click(screen.getByLabelText('Interval', { selector: 'input' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options.slice(0, 5)).toEqual(['1m', '3m', '5m', '15m', '30m']);
    expect(options).toHaveLength(15);
  });

  it('the star toggles the chosen interval in and out of the favourites', async () => {
    renderPicker('4h');
    const add = screen.getByRole('button', { name: 'Add 4h to favourite intervals' });
    expect(add).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(add);
    expect(userSettings.favoriteIntervals['4h']).toBe(true);
    await waitFor(() => expect(favouriteButtons()).toEqual(['1m', '3m', '5m', '15m', '30m', '4h']));
    fireEvent.click(await screen.findByRole('button', { name: 'Remove 4h from favourite intervals' }));
    expect(userSettings.favoriteIntervals['4h']).toBe(false);
    await waitFor(() => expect(favouriteButtons()).not.toContain('4h'));
  });

  it('a favourite button switches the interval', async () => {
    renderPicker('5m');
    fireEvent.click(screen.getByRole('button', { name: '15m' }));
    expect(await screen.findByRole('button', { name: 'Remove 15m from favourite intervals' })).toBeInTheDocument();
  });
});
