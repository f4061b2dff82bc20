import { Layout, type ILayoutApi, type TabNode } from 'flexlayout-react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { FeatureFlagMap } from '../../api/contracts/feature-flags';
import type { ServerSettings } from '../../api/contracts/settings';
import { activeServices, offeredPanels } from '../registry';
import { CHART_PANEL, addPanel } from './layout-model';
import { WorkstationHotkeys } from './hotkeys-help';
import { EmptyTabset, PanelHost, renderTab } from './panel-host';
import { POPOUT_URL, onPopoutOpen } from './popout';
import { useNamedLayouts } from './use-named-layouts';
import { newChartConfig, useWorkstationModel } from './use-workstation-model';
import { WorkstationToolbar } from './workstation-toolbar';

export interface WorkstationLayoutProps {
  /** Local storage name of this user's layout copy. */
  cacheName: string;
  /** Server settings as loaded when the workstation opened (null: could not be loaded). */
  serverSettings: ServerSettings | null;
  flags: FeatureFlagMap | undefined;
}

export function WorkstationLayout({ cacheName, serverSettings, flags }: WorkstationLayoutProps) {
  const offered = useMemo(() => offeredPanels(flags), [flags]);
  const layoutRef = useRef<ILayoutApi>(null);
  const { current, saveStatus, replaceModel } = useWorkstationModel(cacheName, serverSettings, offered);
  const namedLayoutActions = useNamedLayouts(serverSettings, current.model, offered, replaceModel);

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
      <WorkstationToolbar model={current.model} offered={offered} saveStatus={saveStatus} onAdd={add} {...namedLayoutActions} />
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
