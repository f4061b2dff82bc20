import { Button, Group, Switch, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { HOTKEY_ACTIONS, HOTKEY_LABELS, TRADING_HOTKEY_ACTIONS, comboOf, hotkeys, resetHotkeys, setHotkey, tradingHotkeys, type HotkeyAction } from '../../state/hotkeys';
import { ComboKeys } from '../../ui/combo-keys';

/**
 * Preferences → Hotkeys: each action's key combination. "Change" listens for the next combination
 * (Escape gives up, Backspace or Delete leaves the action without a key); a combination that is
 * reserved or already taken is refused with the reason, keeping the old one.
 */
export function HotkeysSection() {
  const keys = useSnapshot(hotkeys);
  const trading = useSnapshot(tradingHotkeys);
  const [recording, setRecording] = useState<HotkeyAction | null>(null);
  const [problem, setProblem] = useState<{ action: HotkeyAction; message: string } | null>(null);

  const onKeyDown = (action: HotkeyAction, e: React.KeyboardEvent) => {
    if (recording !== action) return;
    e.preventDefault();
    e.stopPropagation();
    if (e.code === 'Escape') {
      setRecording(null);
      return;
    }
    if (e.code === 'Backspace' || e.code === 'Delete') {
      setHotkey(action, null);
      setProblem(null);
      setRecording(null);
      return;
    }
    const combo = comboOf(e.nativeEvent);
    if (!combo) return; // a modifier alone: wait for the key
    const message = setHotkey(action, combo);
    setProblem(message ? { action, message } : null);
    if (!message) setRecording(null);
  };

  return (
    <>
      <Switch
        mb="xs"
        label="Trading hotkeys: buy and sell (they press Order entry's button, sending what it would send) and close the position"
        description="Off until you turn them on, so a stray key never sends an order. The close asks first while Confirmations → “Close position” is on."
        checked={trading.on}
        onChange={(e) => {
          tradingHotkeys.on = e.currentTarget.checked;
        }}
      />
      <Table verticalSpacing={4} withRowBorders={false} data-testid="hotkeys-table">
        <Table.Tbody>
          {HOTKEY_ACTIONS.map((action) => (
            <Table.Tr key={action}>
              <Table.Td>
                <Text size="sm" c={TRADING_HOTKEY_ACTIONS.includes(action) && !trading.on ? 'dimmed' : undefined}>
                  {HOTKEY_LABELS[action]}
                  {TRADING_HOTKEY_ACTIONS.includes(action) && !trading.on ? ' (off)' : ''}
                </Text>
                {problem?.action === action ? (
                  <Text size="xs" c="red" role="alert">
                    {problem.message}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td w={160}>{keys[action] ? <ComboKeys combo={keys[action]} /> : <Text size="sm" c="dimmed">none</Text>}</Table.Td>
              <Table.Td w={150}>
                <Button
                  size="compact-xs"
                  variant={recording === action ? 'filled' : 'default'}
                  aria-label={`Change the hotkey: ${HOTKEY_LABELS[action]}`}
                  onClick={() => {
                    setProblem(null);
                    setRecording((r) => (r === action ? null : action));
                  }}
                  onKeyDown={(e) => onKeyDown(action, e)}
                  onBlur={() => setRecording((r) => (r === action ? null : r))}
                >
                  {recording === action ? 'Press keys…' : 'Change'}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="space-between">
        <Text size="xs" c="dimmed">
          In the workstation, press ? to see them all. Escape stops changing; Backspace leaves an action without a key.
        </Text>
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => {
            resetHotkeys();
            setProblem(null);
          }}
        >
          Reset to defaults
        </Button>
      </Group>
    </>
  );
}
