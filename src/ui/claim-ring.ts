/**
 * Once per browser (every tab of the origin): an alert that fired, a fill that arrived. Shared by
 * the alerts and the trading panels, which each hear the same event in every open tab.
 */
const RANG_PREFIX = 'ct_rang_';
/** A ring claim is kept this long: enough for every tab to have seen the notification. */
const RANG_KEEP_MS = 24 * 3_600_000;

function pruneRang(now: number): void {
  for (let k = localStorage.length - 1; k >= 0; k--) {
    const key = localStorage.key(k);
    if (key?.startsWith(RANG_PREFIX) && now - Number(localStorage.getItem(key)) > RANG_KEEP_MS) localStorage.removeItem(key);
  }
}

/**
 * True in exactly one tab of this browser for an event id (a notification, a fill): the check-and-set runs under a Web
 * Lock (`navigator.locks`), which every tab of the origin shares, so two tabs polling at once do
 * not both ring. Without Web Locks (old browsers) the localStorage mark alone is best effort.
 */
export async function claimRing(id: string): Promise<boolean> {
  const claim = () => {
    try {
      const key = `${RANG_PREFIX}${id}`;
      if (localStorage.getItem(key) !== null) return false;
      const now = Date.now();
      localStorage.setItem(key, String(now));
      pruneRang(now);
      return true;
    } catch {
      return true; // storage unavailable: ring here rather than nowhere
    }
  };
  if (typeof navigator !== 'undefined' && navigator.locks) return navigator.locks.request('ct-ring', claim);
  return claim();
}
