/** Every alerts query and mutation lives under this key; the list is `[...alertsQueryKey, 'list']`. */
export const alertsQueryKey = ['alerts'] as const;
export const alertListQueryKey = [...alertsQueryKey, 'list'] as const;
