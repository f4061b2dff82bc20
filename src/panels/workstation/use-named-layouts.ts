import type { IJsonModel, Model } from 'flexlayout-react';
import type { ServerSettings } from '../../api/contracts/settings';
import { useServerSettings } from '../../api/settings/get-server-settings';
import { useUpdateServerSettings } from '../../api/settings/update-server-settings';
import { toastSuccess } from '../../ui/toast';
import { panelRegistry, type PanelDefinition } from '../registry';
import { defaultLayoutJson, serializeLayout } from './layout-model';
import { restoreLayout } from './layout-migrations';
import { withNamedLayout, withoutNamedLayout } from './named-layouts';
import { chartDefaults } from './use-workstation-model';
import type { WorkstationToolbarProps } from './workstation-toolbar';

/**
 * The toolbar's layout actions on the server settings' `namedLayouts`: save the current layout under
 * a name, open one, delete one, reset to the default layout.
 */
export function useNamedLayouts(
  serverSettings: ServerSettings | null,
  model: Model,
  offered: Record<string, PanelDefinition>,
  replaceModel: (json: IJsonModel) => void,
): Pick<WorkstationToolbarProps, 'namedLayouts' | 'onReset' | 'onLoad' | 'onSave' | 'onDelete'> {
  const named = useServerSettings().data?.namedLayouts ?? serverSettings?.namedLayouts ?? {};
  const { mutate: patchSettings } = useUpdateServerSettings();
  return {
    namedLayouts: named,
    onReset: () => replaceModel(defaultLayoutJson(offered, chartDefaults())),
    onLoad: (name) => {
      const stored = named[name];
      if (!stored) return;
      const restored = restoreLayout(stored, { catalog: panelRegistry, offered, chartDefaults: chartDefaults() });
      replaceModel(restored.json);
    },
    onSave: (name, { onSaved, onFailed }) =>
      patchSettings(
        { namedLayouts: withNamedLayout(named, name, serializeLayout(model)) },
        {
          onSuccess: () => {
            toastSuccess(`Layout "${name}" saved`);
            onSaved();
          },
          onError: onFailed,
        },
      ),
    onDelete: (name) => patchSettings({ namedLayouts: withoutNamedLayout(named, name) }),
  };
}
