import { ActionIcon, Badge, Button, Group, Select, Text, TextInput, Tooltip } from '@mantine/core';
import { IconFocusCentered } from '@tabler/icons-react';
import { dec, isZero, mul, str } from '../../api/contracts/decimal';
import type { OrderFlowStatus } from '../../api/market/order-flow/types';
import { show } from '../shared/trading/format';
import { snapQty, typingProblem, type EntryTerms } from '../shared/trading/size-checks';

/** Row groupings offered, in ticks. */
export const GROUPS = [1, 2, 5, 10, 25, 50, 100] as const;
/** Quick sizes, in multiples of the instrument's minimum size. */
const QUICK = [1, 5, 10, 50] as const;

const STATUS_COLOR: Record<OrderFlowStatus, string> = { connecting: 'gray', live: 'teal', resyncing: 'yellow', reconnecting: 'yellow', error: 'red' };

export interface LadderHeaderProps {
  symbol: string;
  terms: EntryTerms;
  size: string;
  onSize(size: string): void;
  group: number;
  onGroup(group: number): void;
  onCentre(): void;
  status: OrderFlowStatus | null;
  error?: string;
}

/** The size every click sends (typed, or a quick size), the rows' grouping, re-centre and the book's state. */
export function LadderHeader({ symbol, terms, size, onSize, group, onGroup, onCentre, status, error }: LadderHeaderProps) {
  const unit = isZero(dec(terms.minQty)) ? terms.stepSize : terms.minQty;
  return (
    <Group gap={6} wrap="wrap" align="flex-end">
      <TextInput
        size="xs"
        w={110}
        label={`Size (${terms.category === 'inverse' ? 'contracts' : `step ${terms.stepSize}`})`}
        value={size}
        onChange={(e) => onSize(e.currentTarget.value)}
        onBlur={() => onSize(snapQty(size, terms.stepSize))}
        error={typingProblem(size)}
        inputMode="decimal"
      />
      <Group gap={2} wrap="nowrap" data-testid="dom-ladder-quick-sizes">
        {QUICK.map((m) => {
          const q = str(mul(dec(unit), dec(m)));
          return (
            <Button key={m} size="compact-xs" variant={q === size ? 'filled' : 'default'} onClick={() => onSize(q)}>
              {show(q)}
            </Button>
          );
        })}
      </Group>
      <Select
        size="xs"
        w={90}
        label="Rows"
        aria-label="Row grouping"
        data={GROUPS.map((g) => ({ value: String(g), label: g === 1 ? `${terms.tickSize} (tick)` : str(mul(dec(terms.tickSize), dec(g))) }))}
        value={String(group)}
        onChange={(v) => v && onGroup(GROUPS.find((g) => String(g) === v) ?? 1)}
        allowDeselect={false}
      />
      <Tooltip label="Centre on the price">
        <ActionIcon size="md" variant="default" aria-label="Centre on the price" onClick={onCentre}>
          <IconFocusCentered size={16} />
        </ActionIcon>
      </Tooltip>
      <Text size="xs" fw={600}>
        {symbol}
      </Text>
      {status ? (
        <Tooltip label={error ?? status} disabled={!error}>
          <Badge size="xs" variant="light" color={STATUS_COLOR[status]} data-testid="dom-ladder-status">
            {status}
          </Badge>
        </Tooltip>
      ) : null}
    </Group>
  );
}
