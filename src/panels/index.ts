/**
 * The workstation: what `/trade` renders (lazy-loaded by the app's route table), and the panel
 * registry later panels plug into.
 */
export { Workstation } from './workstation/workstation';
export { PANEL_REGISTRY, panelRegistry, offeredPanels, type PanelDefinition, type PanelKind } from './registry';
export type { PanelProps } from './shared/panel-props';
export { ChartHeader } from './shared/chart-header';
