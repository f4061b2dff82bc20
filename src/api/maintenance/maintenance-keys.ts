export const maintenanceQueryKey = ['maintenance'] as const;
