import { useEffect } from 'react';
import { useConfig } from '../api/config/get-config';

export const DEFAULT_PRODUCT_NAME = 'Crypto Terminal';

/** The product name from `/v1/config`, or the default until it has loaded. */
export function useProductName(): string {
  return useConfig().data?.productName ?? DEFAULT_PRODUCT_NAME;
}

export function pageTitle(page: string | null, product: string): string {
  return page ? `${page} · ${product}` : product;
}

/** Sets the tab title to `{page} · {product}` while the calling screen is shown. */
export function usePageTitle(page: string | null): void {
  const product = useProductName();
  useEffect(() => {
    document.title = pageTitle(page, product);
  }, [page, product]);
}
