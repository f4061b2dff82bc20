import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy*/waitFor wait up to 5 s (Testing Library's default is 1 s): the first render of a panel pays for its
// lazy modules, and on a loaded 2-core machine (CI runs two workers) that alone passed 1 s.
configure({ asyncUtilTimeout: 5000 });

// Mantine reads these browser APIs, which jsdom does not provide.
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList =>
    ({
      // An empty query matches every medium, as in browsers (mantine-datatable shows a column only
      // while its media query, by default '', matches).
      matches: query.trim() === '' || query.trim() === 'all',
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  (window as unknown as { ResizeObserver: typeof ResizeObserverStub }).ResizeObserver = ResizeObserverStub;
}
window.HTMLElement.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(() => cleanup());
