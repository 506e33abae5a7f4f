import type { ReactNode } from 'react';
import type { Layout } from '../../codegen/generated/descriptors.ts';

/** What a layout component of the registry (layouts/index.ts) is given: its descriptor and the page. */
export interface LayoutProps {
  layout: Layout;
  children: ReactNode;
}
