import { useEffect, useState } from 'react';
import { useFeatureFlagMap } from '../../api/feature-flags/get-feature-flag-map';
import { useServerSettings } from '../../api/settings/get-server-settings';
import { useMe } from '../../api/users/get-me';
import { bindLocalStateToUser } from '../../state';
import { workstationLayoutCacheName } from '../../state/workstation-layout-cache';
import { FullAreaLoader } from '../../ui/full-area-loader';
import { usePageTitle } from '../../ui/use-page-title';
import { WorkstationLayout } from './workstation-layout';
import 'flexlayout-react/style/dark.css';
import './workstation.css';

/**
 * `/trade`: the workstation. Waits for the user, their server settings (the saved layout) and their
 * local stores, then opens the layout: an unsaved local change, else the server's layout, else the
 * default one.
 */
export function Workstation() {
  usePageTitle('Trade');
  const { data: me } = useMe();
  const settings = useServerSettings();
  const { data: flags } = useFeatureFlagMap();
  const [cacheName, setCacheName] = useState<{ userId: string; name: string } | null>(null);

  const userId = me?.id;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    // The local stores must hold this user's values before the layout syncs the active chart with
    // them; binding again is harmless (the app binds too; the latest bind wins, same user).
    Promise.all([workstationLayoutCacheName(userId), bindLocalStateToUser(userId)])
      .then(([name]) => {
        if (live) setCacheName({ userId, name });
      })
      .catch((error: unknown) => {
        console.error('Could not load local settings', error);
        if (live) setCacheName({ userId, name: `workstation_layout_unbound` });
      });
    return () => {
      live = false;
    };
  }, [userId]);

  // A failed settings load (after its retries) opens the local copy or the default layout; saving
  // then tells the user it cannot reach the server.
  const settingsSettled = settings.isSuccess || settings.isError;
  if (!userId || cacheName?.userId !== userId || !settingsSettled) return <FullAreaLoader description="Loading your workstation" />;
  return <WorkstationLayout key={userId} cacheName={cacheName.name} serverSettings={settings.data ?? null} flags={flags} />;
}
