import { MantineThemeProvider, type MantineThemeOverride } from '@mantine/core';
import { TabNode, type ILayoutProps } from 'flexlayout-react';
import { useMemo, type ReactNode } from 'react';

/**
 * Popout windows: flexlayout renders a popped-out panel into a blank same-origin window (through a
 * React portal, so the panel keeps this app's state, queries and stores) and copies the page's CSS
 * into it. Two things the blank page still lacks are added here:
 * - Mantine's colour-scheme attribute on <html>, which selects its dark palette;
 * - portals: Mantine renders menus, selects and tooltips into `document.body`, which is the MAIN
 *   window's body; a panel in a popout points them at its own window's body instead.
 */
export const POPOUT_URL = '/popout.html';

export const onPopoutOpen: NonNullable<ILayoutProps['onPopoutOpen']> = (layout, _window, popoutDocument) => {
  const scheme = document.documentElement.getAttribute('data-mantine-color-scheme');
  if (scheme) popoutDocument.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  popoutDocument.body.classList.add('workstation-popout');
  // flexlayout titles the window "<name> <layout id>"; name it like every tab: '{page} · {product}'.
  let first: TabNode | undefined;
  layout.visitNodes((node) => {
    if (!first && node instanceof TabNode) first = node;
  });
  const product = document.title.includes(' · ') ? document.title.slice(document.title.lastIndexOf(' · ') + 3) : document.title;
  if (first) popoutDocument.title = `${first.getName()} · ${product}`;
};

/**
 * Wraps a panel so its Mantine portals open in the window the panel is in. Always rendered (with no
 * target in the main window), so popping a panel out or back in does not remount it.
 */
export function PanelWindowScope({ node, children }: { node: TabNode; children: ReactNode }) {
  const doc = node.getDocument();
  const target = doc && doc !== document ? doc.body : undefined;
  const theme = useMemo<MantineThemeOverride>(() => ({ components: { Portal: { defaultProps: { target } } } }), [target]);
  return <MantineThemeProvider theme={theme}>{children}</MantineThemeProvider>;
}
