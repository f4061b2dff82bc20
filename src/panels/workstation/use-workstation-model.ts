import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { IJsonModel, Model } from 'flexlayout-react';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { apiClient } from '../../api/client';
import type { ServerSettings, StoredLayout } from '../../api/contracts/settings';
import { receiveServerSettings, updateServerSettings } from '../../api/settings/update-server-settings';
import { activeChart, type ChartConfig } from '../../state/chart-links';
import { userSettings } from '../../state/user-settings';
import { chooseLayoutSource, readLocalLayout } from '../../state/workstation-layout-cache';
import { panelRegistry } from '../registry';
import { connectActiveChartToUserSettings, connectChartsToModel } from './chart-sync';
import { buildModel, defaultLayoutJson, serializeLayout } from './layout-model';
import { restoreLayout } from './layout-migrations';
import { LayoutSaver, type LayoutSaveStatus } from './layout-saver';

type Offered = Record<string, { title: string; allowMultiple: boolean }>;

/** Where a new chart starts: the user's trading market (the active chart's, kept in step with it). */
export function chartDefaults(): ChartConfig {
  return { exchange: userSettings.exchangeName, symbol: userSettings.tradingPair, interval: userSettings.interval, link: null };
}

/** A new chart shows the active chart's market (unlinked), else the trading market. */
export function newChartConfig(): ChartConfig {
  const active = activeChart();
  return active ? { exchange: active.exchange, symbol: active.symbol, interval: active.interval, link: null } : chartDefaults();
}

/** A model from JSON; JSON flexlayout rejects (it should not, after repair) opens the default layout. */
function modelFrom(json: IJsonModel, offered: Offered): Model {
  try {
    return buildModel(json);
  } catch (error) {
    console.warn('The layout could not be opened; opening the default layout', error);
    return buildModel(defaultLayoutJson(offered, chartDefaults()));
  }
}

/** The saved layout (this device's copy or the server's, `chooseLayoutSource`), migrated and repaired. */
function openSavedLayout(cacheName: string, serverSettings: ServerSettings | null, offered: Offered): BootLayout {
  const choice = chooseLayoutSource(serverSettings?.layout ?? null, readLocalLayout(cacheName));
  const restored = restoreLayout(choice.layout, { catalog: panelRegistry, offered, chartDefaults: chartDefaults() });
  if (restored.repairs.length) console.warn('The saved workstation layout was repaired:', restored.repairs);
  return { model: modelFrom(restored.json, offered), push: choice.push };
}

/** The layout the workstation opened with; `push`: this device's copy never reached the server. */
interface BootLayout {
  model: Model;
  push: boolean;
}

export interface WorkstationModel {
  /** The layout shown; `epoch` changes when another layout replaces it (the Layout is re-created). */
  current: { model: Model; epoch: number };
  saveStatus: LayoutSaveStatus;
  /** Opens another layout in place of the current one (reset, a saved layout) and saves it as current. */
  replaceModel: (json: IJsonModel) => void;
}

/** The workstation's flexlayout model: opened once from what was saved, kept in step with the charts, saved on every change. */
export function useWorkstationModel(cacheName: string, serverSettings: ServerSettings | null, offered: Offered): WorkstationModel {
  // The layout opened once, from what was saved; later refetches of the settings do not reset it.
  const [boot] = useState(() => openSavedLayout(cacheName, serverSettings, offered));
  const [current, setCurrent] = useState({ model: boot.model, epoch: 0 });
  const { saverRef, saveStatus } = useLayoutSaver(cacheName, boot);
  useModelSync(current, saverRef);

  const replaceModel = useCallback(
    (json: IJsonModel) => {
      const model = modelFrom(json, offered);
      setCurrent((c) => ({ model, epoch: c.epoch + 1 }));
      saverRef.current?.change(serializeLayout(model));
    },
    [offered],
  );
  return { current, saveStatus, replaceModel };
}

/** One `LayoutSaver` per workstation: this device at once, the server after a quiet second; flushed on page hide. */
function useLayoutSaver(cacheName: string, boot: BootLayout): { saverRef: RefObject<LayoutSaver | null>; saveStatus: LayoutSaveStatus } {
  const queryClient = useQueryClient();
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
  return { saverRef, saveStatus };
}

/** Charts ↔ the model's chart nodes, the active chart ↔ the user settings, and every model change to the saver. */
function useModelSync(current: { model: Model }, saverRef: RefObject<LayoutSaver | null>): void {
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
}
