import type { TabNode } from 'flexlayout-react';

/**
 * What every panel component receives from the workstation. `node` is the panel's flexlayout tab:
 * `node.getId()` identifies the panel (charts key their state by it), `node.getConfig()` is its saved
 * config, `node.getWindow()` the browser window it is in (the main one or a popout).
 */
export interface PanelProps {
  node: TabNode;
}
