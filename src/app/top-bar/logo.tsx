/** The product mark: three candles, drawn inline so the login page needs no extra request. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-label="logo">
      <rect width="32" height="32" rx="7" fill="var(--mantine-color-blue-7)" />
      <g stroke="#fff" strokeWidth="1.5" strokeLinecap="round">
        <line x1="9" y1="8" x2="9" y2="24" />
        <line x1="16" y1="5" x2="16" y2="21" />
        <line x1="23" y1="11" x2="23" y2="27" />
      </g>
      <rect x="7" y="12" width="4" height="8" rx="1" fill="#4ade80" />
      <rect x="14" y="8" width="4" height="9" rx="1" fill="#f87171" />
      <rect x="21" y="14" width="4" height="9" rx="1" fill="#4ade80" />
    </svg>
  );
}
