import { Anchor, Badge, Button, Checkbox, Group, PasswordInput, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useCreateApiKey } from '../../../api/api-keys/create-api-key';
import { useCreateSimCredentials } from '../../../api/api-keys/create-sim-credentials';
import { useUnlockApiKey } from '../../../api/api-keys/unlock-api-key';
import { errorMessage } from '../../../api/errors';
import { KEY_PASSWORD_MIN } from '../../../api/contracts/api-keys';
import { useConfig } from '../../../api/config/get-config';
import type { ExchangeId } from '../../../api/contracts/common';
import { setApiKeyId } from '../../../state/user-settings';
import { PanelMessage } from '../panel-message';
import type { TradingAccount } from './use-trading-account';

const STATE_COLOR = { connecting: 'gray', connected: 'teal', reconnecting: 'yellow', error: 'red' } as const;

/** The account stream's state, always visible (SPEC: the listen key / connected flag). */
export function StreamStatus({ account }: { account: TradingAccount }) {
  const status = account.status;
  if (!status) return null;
  const badge = (
    <Badge size="xs" variant="light" color={STATE_COLOR[status.state]} data-testid="account-stream-status">
      {status.state}
    </Badge>
  );
  return status.reason ? <Tooltip label={status.reason}>{badge}</Tooltip> : badge;
}

/**
 * What every trading panel shows before it can trade: no key (a link to Settings → API keys, and in
 * simulator mode a one-click simulator key), the key picker, the password prompt (remember on this
 * device, or only for this page), then the panel itself with the key and stream status on top.
 */
export function AccountGate({ account, children }: { account: TradingAccount; children: ReactNode }) {
  const config = useConfig();
  const sim = config.data?.marketData === 'sim';
  if (account.keysLoading) return <PanelMessage title="Loading your API keys…" />;
  if (!account.key) {
    return (
      <PanelMessage title={`No ${account.network === 'TESTNET' ? 'testnet ' : ''}API key for ${account.exchange}`} testId="no-api-key">
        <Stack gap="xs" align="center">
          <Text size="sm">
            Add one in{' '}
            <Anchor component={Link} to="/settings/api-keys">
              Settings → API keys
            </Anchor>
            .
          </Text>
          {sim ? <CreateSimKey exchange={account.exchange as ExchangeId} network={account.network} /> : null}
        </Stack>
      </PanelMessage>
    );
  }
  return (
    <Stack gap={6} h="100%" p={6} style={{ overflow: 'hidden' }}>
      <Group gap={6} wrap="nowrap">
        <Select
          size="xs"
          aria-label="API key"
          data={account.keys.map((k) => ({ value: k.id, label: `${k.name} (${k.apiKeyMasked})` }))}
          value={account.key.id}
          onChange={(v) => v && account.selectKey(v)}
          allowDeselect={false}
          style={{ flex: 1, minWidth: 0 }}
        />
        <StreamStatus account={account} />
        {account.tradeKey ? (
          <Button size="compact-xs" variant="subtle" onClick={account.lock}>
            {account.remembered ? 'Forget password' : 'Lock'}
          </Button>
        ) : null}
      </Group>
      {account.tradeKey ? <div style={{ flex: 1, minHeight: 0, overflow: 'auto' }}>{children}</div> : <Unlock account={account} />}
    </Stack>
  );
}

/**
 * The password is checked by the server before the panels use it (issue 22): a wrong one keeps this
 * form and says so once, at the field — never an "unlocked" panel whose every call fails.
 */
function Unlock({ account }: { account: TradingAccount }) {
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const check = useUnlockApiKey();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const key = account.key;
        if (!password || !key || check.isPending) return;
        setProblem(null);
        check.mutate(
          { id: key.id, keyPassword: password, remember },
          {
            onSuccess: () => account.unlock(password, remember),
            onError: (err) => setProblem(errorMessage(err, 'The key could not be unlocked')),
          },
        );
      }}
    >
      <Stack gap={6} maw={320} data-testid="unlock-key">
        <Text size="sm">Enter the key password of “{account.key?.name}” to trade with it.</Text>
        <PasswordInput
          size="xs"
          label="Key password"
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setProblem(null);
          }}
          autoComplete="off"
          error={problem ?? undefined}
        />
        <Checkbox size="xs" label="Remember on this device" checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
        <Button size="xs" type="submit" disabled={!password} loading={check.isPending}>
          Unlock
        </Button>
      </Stack>
    </form>
  );
}

function CreateSimKey({ exchange, network }: { exchange: ExchangeId; network: 'MAINNET' | 'TESTNET' }) {
  const [password, setPassword] = useState('');
  const creds = useCreateSimCredentials();
  const create = useCreateApiKey();
  const busy = creds.isPending || create.isPending;
  const tooShort = password.length < KEY_PASSWORD_MIN;
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault();
        if (tooShort) return;
        const c = await creds.mutateAsync({ exchange });
        const key = await create.mutateAsync({ name: `Simulator ${exchange}`, exchange, network, ...c, keyPassword: password });
        setApiKeyId(key.id);
      }}
    >
      <Group gap={6} align="flex-end" justify="center">
        <PasswordInput size="xs" label="Key password for a new simulator key" value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={password && tooShort ? `At least ${KEY_PASSWORD_MIN} characters` : undefined} />
        <Button size="xs" type="submit" loading={busy} disabled={tooShort}>
          Create a simulator key
        </Button>
      </Group>
    </form>
  );
}
