import { Anchor, Modal, Table, Text } from '@mantine/core';
import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { HOTKEY_ACTIONS, HOTKEY_LABELS, RESERVED_HOTKEYS, hotkeys } from '../../state/hotkeys';
import { ComboKeys } from '../../ui/combo-keys';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import type { PendingConfirm } from './hotkey-actions';
import { useWorkstationHotkeys } from './use-workstation-hotkeys';

const FIXED: ReadonlyArray<[string, string]> = [
  ['Shift+/', RESERVED_HOTKEYS['Shift+/']],
  ['Alt+A', RESERVED_HOTKEYS['Alt+A']],
  ['Escape', RESERVED_HOTKEYS.Escape],
  ['Delete', RESERVED_HOTKEYS.Delete],
  ['Shift+Click', 'On the chart with trading from the chart on: prepare a limit order at that price'],
];

/** The `?` overlay: every hotkey with what it does, the configurable ones first. */
export function HotkeysHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const keys = useSnapshot(hotkeys);
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" size="lg" centered>
      <Table striped withRowBorders={false} verticalSpacing={4} data-testid="hotkeys-help">
        <Table.Tbody>
          {HOTKEY_ACTIONS.map((a) => (
            <Table.Tr key={a}>
              <Table.Td w={170}>{keys[a] ? <ComboKeys combo={keys[a]} /> : <Text size="sm" c="dimmed">none</Text>}</Table.Td>
              <Table.Td>{HOTKEY_LABELS[a]}</Table.Td>
            </Table.Tr>
          ))}
          {FIXED.map(([combo, what]) => (
            <Table.Tr key={combo}>
              <Table.Td>
                <ComboKeys combo={combo} />
              </Table.Td>
              <Table.Td>{what}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" c="dimmed" mt="sm">
        Hotkeys never act while you type in a field. The ones that trade (buy, sell, close) are off until you turn them on.{' '}
        <Anchor component={Link} to="/settings/preferences#hotkeys" onClick={onClose}>
          Change them in Preferences
        </Anchor>
      </Text>
    </Modal>
  );
}

/** The workstation's hotkeys, their `?` overlay, and the confirm a trading hotkey asks for (the confirm flags). */
export function WorkstationHotkeys() {
  const [help, setHelp] = useState(false);
  const [pending, setPending] = useState<PendingConfirm | null>(null);
  const toggle = useCallback(() => setHelp((h) => !h), []);
  useWorkstationHotkeys(toggle, setPending);
  return (
    <>
      <HotkeysHelp opened={help} onClose={() => setHelp(false)} />
      <ConfirmDialog
        opened={pending !== null}
        title="Close the position?"
        confirmLabel="Close position"
        onCancel={() => setPending(null)}
        onConfirm={() => {
          pending?.run();
          setPending(null);
        }}
      >
        {pending?.question ?? ''}
      </ConfirmDialog>
    </>
  );
}
