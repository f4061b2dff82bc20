import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Layout, type IJsonModel, type ILayoutApi, type Model, type TabNode } from 'flexlayout-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { apiClient } from '../../api/client';
import type { FeatureFlagMap } from '../../api/contracts/feature-flags';
import type { ServerSettings, StoredLayout } from '../../api/contracts/settings';
import { useServerSettings } from '../../api/settings/get-server-settings';
import { receiveServerSettings, updateServerSettings, useUpdateServerSettings } from '../../api/settings/update-server-settings';
import { activeChart, type ChartConfig } from '../../state/chart-links';
import { userSettings } from '../../state/user-settings';
import { chooseLayoutSource, readLocalLayout } from '../../state/workstation-layout-cache';
import { toastSuccess } from '../../ui/toast';
import { activeServices, offeredPanels, panelRegistry } from '../registry';
import { connectActiveChartToUserSettings, connectChartsToModel } from './chart-sync';
import { CHART_PANEL, addPanel, buildModel, defaultLayoutJson, serializeLayout } from './layout-model';
import { restoreLayout } from './layout-migrations';
import { LayoutSaver, type LayoutSaveStatus } from './layout-saver';
import { withNamedLayout, withoutNamedLayout } from './named-layouts';
import { WorkstationHotkeys } from './hotkeys-help';
import { EmptyTabset, PanelHost, renderTab } from './panel-host';
import { POPOUT_URL, onPopoutOpen } from './popout';
import { WorkstationToolbar } from './workstation-toolbar';

export interface WorkstationLayoutProps {
  /** Local storage name of this user's layout copy. */
  cacheName: string;
  /** Server settings as loaded when the workstation opened (null: could not be loaded). */
  serverSettings: ServerSettings | null;
  flags: FeatureFlagMap | undefined;
}

/** Where a new chart starts: the user's trading market (the active chart's, kept in step with it). */
function chartDefaults(): ChartConfig {
  return { exchange: userSettings.exchangeName, symbol: userSettings.tradingPair, interval: userSettings.interval, link: null };
}

/** A new chart shows the active chart's market (unlinked), else the trading market. */
function newChartConfig(): ChartConfig {
  const active = activeChart();
  return active ? { exchange: active.exchange, symbol: active.symbol, interval: active.interval, link: null } : chartDefaults();
}

/** A model from JSON; JSON flexlayout rejects (it should not, after repair) opens the default layout. */
function modelFrom(json: IJsonModel, offered: Record<string, { title: string; allowMultiple: boolean }>): Model {
  try {
    return buildModel(json);
  } catch (error) {
    console.warn('The layout could not be opened; opening the default layout', error);
    return buildModel(defaultLayoutJson(offered, chartDefaults()));
  }
}

export function WorkstationLayout({ cacheName, serverSettings, flags }: WorkstationLayoutProps) {
  const offered = useMemo(() => offeredPanels(flags), [flags]);
  const queryClient = useQueryClient();
  const named = useServerSettings().data?.namedLayouts ?? serverSettings?.namedLayouts ?? {};
  const { mutate: patchSettings } = useUpdateServerSettings();
  const layoutRef = useRef<ILayoutApi>(null);

  // The layout opened once, from what was saved; later refetches of the settings do not reset it.
  const [boot] = useState(() => {
    const choice = chooseLayoutSource(serverSettings?.layout ?? null, readLocalLayout(cacheName));
    const restored = restoreLayout(choice.layout, { catalog: panelRegistry, offered, chartDefaults: chartDefaults() });
    if (restored.repairs.length) console.warn('The saved workstation layout was repaired:', restored.repairs);
    return { model: modelFrom(restored.json, offered), push: choice.push };
  });
  const [current, setCurrent] = useState({ model: boot.model, epoch: 0 });
  const [saveStatus, setSaveStatus] = useState<LayoutSaveStatus>(boot.push ? 'pending' : 'saved');

  const { mutateAsync: sendLayout } = useMutation({
    mutationFn: (layout: StoredLayout) => updateServerSettings({ layout }),
    // Keep the cache current, so coming back to /trade opens this layout, not the one loaded earlier.
    // (Keys with an optimistic change still on its way, e.g. a drawing just placed, are kept.)
    onSuccess: (settings) => receiveServerSettings(queryClient, settings),
    meta: { errorMessage: 'Unable to update settings.' },
  });
  const sendRef = useRef(sendLayout);
  sendRef.current = sendLayout;

  const saverRef = useRef<LayoutSaver | null>(null);
  useEffect(() => {
    const saver = new LayoutSaver({
      cacheName,
      // Signed out meanwhile (the workstation unmounts on sign-out and flushes): keep the change on
      // this device, unsynced, for the next sign-in, instead of a request bound to fail with a toast.
      send: (layout) => (apiClient.getAccessToken() === null ? Promise.reject(new Error('Signed out')) : sendRef.current(layout)),
      onStatus: setSaveStatus,
    });
    saverRef.current = saver;
    // A change that never reached the server (reload, offline) is sent now.
    if (boot.push) saver.change(serializeLayout(boot.model));
    const onPageHide = () => void saver.flush();
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      saver.dispose();
      if (saverRef.current === saver) saverRef.current = null;
    };
  }, [cacheName, boot]);

  useEffect(() => {
    const { model } = current;
    const stopCharts = connectChartsToModel(model, chartDefaults());
    const stopSettingsSync = connectActiveChartToUserSettings();
    const save = () => saverRef.current?.change(serializeLayout(model));
    model.addChangeListener(save);
    return () => {
      model.removeChangeListener(save);
      stopSettingsSync();
      stopCharts();
    };
  }, [current]);

  /** Opens another layout in place of the current one (reset, a saved layout) and saves it as current. */
  const replaceModel = useCallback(
    (json: IJsonModel) => {
      const model = modelFrom(json, offered);
      setCurrent((c) => ({ model, epoch: c.epoch + 1 }));
      saverRef.current?.change(serializeLayout(model));
    },
    [offered],
  );

  const add = useCallback(
    (kind: string, tabsetId?: string) => {
      addPanel(current.model, kind, offered, kind === CHART_PANEL ? newChartConfig() : undefined, tabsetId);
    },
    [current, offered],
  );

  const factory = useCallback((node: TabNode) => <PanelHost node={node} flags={flags} />, [flags]);
  useEffect(() => layoutRef.current?.redraw(), [flags]);

  return (
    <div className="workstation" data-testid="workstation" data-save-status={saveStatus}>
      {activeServices(flags).map(({ id, component: Service }) => (
        <Service key={id} />
      ))}
      <WorkstationHotkeys />
      <WorkstationToolbar
        model={current.model}
        offered={offered}
        namedLayouts={named}
        saveStatus={saveStatus}
        onAdd={add}
        onReset={() => replaceModel(defaultLayoutJson(offered, chartDefaults()))}
        onLoad={(name) => {
          const stored = named[name];
          if (!stored) return;
          const restored = restoreLayout(stored, { catalog: panelRegistry, offered, chartDefaults: chartDefaults() });
          replaceModel(restored.json);
        }}
        onSave={(name, { onSaved, onFailed }) =>
          patchSettings(
            { namedLayouts: withNamedLayout(named, name, serializeLayout(current.model)) },
            {
              onSuccess: () => {
                toastSuccess(`Layout "${name}" saved`);
                onSaved();
              },
              onError: onFailed,
            },
          )
        }
        onDelete={(name) => patchSettings({ namedLayouts: withoutNamedLayout(named, name) })}
      />
      <div className="workstation-layout">
        <Layout
          key={current.epoch}
          ref={layoutRef}
          model={current.model}
          factory={factory}
          onRenderTab={renderTab}
          onTabSetPlaceHolder={(node) => <EmptyTabset offered={offered} onAdd={(kind) => add(kind, node.getId())} />}
          invalidateTabContentOnParentRender={false}
          popoutURL={POPOUT_URL}
          popoutWindowName="Crypto Terminal panel"
          onPopoutOpen={onPopoutOpen}
        />
      </div>
    </div>
  );
}
