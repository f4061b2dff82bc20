import { Button, Group, Text } from '@mantine/core';

/** "Load more" under a cursor-paged table (SPEC §3 paged lists), with how many rows are shown. */
export function LoadMore({
  shown,
  hasMore,
  loading,
  onLoadMore,
}: {
  shown: number;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
}) {
  if (!hasMore && shown === 0) return null;
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        {shown} shown{hasMore ? '' : ' (all)'}
      </Text>
      {hasMore ? (
        <Button variant="light" onClick={onLoadMore} loading={loading} disabled={loading}>
          Load more
        </Button>
      ) : null}
    </Group>
  );
}
