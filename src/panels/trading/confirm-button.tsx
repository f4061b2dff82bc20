import { Button, Group, Popover, Text, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';

/**
 * A button that asks first when `confirm` is on (SPEC §3 confirm flags): a small popover with the
 * question, "Yes" and "No". With `confirm` off it acts at once.
 */
export function ConfirmButton({ confirm, question, onConfirm, children, ...props }: ButtonProps & { confirm: boolean; question: string; onConfirm: () => void; children: ReactNode; 'aria-label'?: string }) {
  const [open, setOpen] = useState(false);
  if (!confirm) {
    return (
      <Button {...props} onClick={onConfirm}>
        {children}
      </Button>
    );
  }
  return (
    <Popover opened={open} onChange={setOpen} withArrow shadow="md" position="bottom-end">
      <Popover.Target>
        <Button {...props} onClick={() => setOpen((o) => !o)}>
          {children}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm" mb={6}>
          {question}
        </Text>
        <Group gap={6} justify="flex-end">
          <Button size="compact-xs" variant="default" onClick={() => setOpen(false)}>
            No
          </Button>
          <Button
            size="compact-xs"
            color="red"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            Yes
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
