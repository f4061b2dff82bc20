import { Button, Group, Modal, Text } from '@mantine/core';

/** A ✕ click waiting for the user's yes (confirm flags of the chart lines and the DOM ladder's chips). */
export type PendingLineAction = { kind: 'cancel'; orderId: string; question: string } | { kind: 'close'; symbol: string; question: string };

export interface TradeLineConfirmProps {
  /** The action asked about (null: closed). */
  pending: PendingLineAction | null;
  onClose: () => void;
  onConfirm: (pending: PendingLineAction) => void;
  /** The dialog's test id (the chart's lines: `chart-line-confirm`). */
  testId?: string;
}

/** "Cancel the … order at …?" / "Close the … at market?" for a chart line's (or a ladder chip's) ✕. */
export function TradeLineConfirm({ pending, onClose, onConfirm, testId = 'chart-line-confirm' }: TradeLineConfirmProps) {
  return (
    <Modal
      opened={pending !== null}
      onClose={onClose}
      title={pending?.kind === 'close' ? 'Close position' : 'Cancel order'}
      size="sm"
      centered
      data-testid={testId}
    >
      <Text size="sm" mb="md">
        {pending?.question}
      </Text>
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onClose}>
          No
        </Button>
        <Button
          color="red"
          data-autofocus
          onClick={() => {
            if (pending) onConfirm(pending);
            onClose();
          }}
        >
          {pending?.kind === 'close' ? 'Close position' : 'Cancel order'}
        </Button>
      </Group>
    </Modal>
  );
}
