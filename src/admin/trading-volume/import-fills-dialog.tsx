import { Alert, Button, Code, FileButton, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useImportFills } from '../../api/fills/import-fills';
import { toastSuccess } from '../../ui/toast';
import { FILLS_CSV_EXAMPLE, parseFillsCsv } from './fills-csv';

/**
 * Imports executions from an exchange export (CSV → `POST /v1/fills/import`), so volume and
 * referrals work before trading records fills itself. Executions already recorded are skipped.
 */
export function ImportFillsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const importFills = useImportFills();
  const [text, setText] = useState('');
  useEffect(() => {
    if (opened) setText('');
  }, [opened]);
  const parsed = useMemo(() => (text.trim() ? parseFillsCsv(text) : null), [text]);
  const ready = parsed !== null && parsed.errors.length === 0 && parsed.fills.length > 0;

  return (
    <Modal opened={opened} onClose={onClose} title="Import fills" size="xl" centered>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          CSV with a header row. Required: externalId, email or userId, exchange, symbol, side (BUY/SELL), qty, price, time (ISO 8601). Optional: network
          (MAINNET), notionalUsd (default qty × price — give it for inverse contracts), notionalXbt, feeUsd.
        </Text>
        <Code block>{FILLS_CSV_EXAMPLE}</Code>
        <FileButton accept=".csv,text/csv,text/plain" onChange={(file) => void file?.text().then(setText)}>
          {(props) => (
            <Button variant="default" w="fit-content" {...props}>
              Choose a CSV file
            </Button>
          )}
        </FileButton>
        <Textarea label="CSV" autosize minRows={6} maxRows={16} ff="monospace" value={text} onChange={(e) => setText(e.currentTarget.value)} />
        {parsed?.errors.length ? (
          <Alert color="red" title={`${parsed.errors.length} problem${parsed.errors.length === 1 ? '' : 's'}`}>
            <List size="sm">
              {parsed.errors.slice(0, 12).map((e) => (
                <List.Item key={e}>{e}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!ready}
            loading={importFills.isPending}
            onClick={() =>
              parsed &&
              importFills.mutate(parsed.fills, {
                onSuccess: ({ inserted, duplicates }) => {
                  toastSuccess(`${inserted} fill${inserted === 1 ? '' : 's'} imported${duplicates ? `, ${duplicates} already recorded` : ''}`);
                  onClose();
                },
              })
            }
          >
            Import {ready ? `${parsed.fills.length} fills` : ''}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
