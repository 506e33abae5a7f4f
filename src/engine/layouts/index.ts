import type { LayoutComponents } from '../services.ts';

/** Layout components by the `component` of screens/layouts.json, each its own chunk (loaded once: layout-frame.tsx). */
export const layoutComponents: LayoutComponents = {
  default: () => import('./DefaultLayout.tsx'),
  esign: () => import('./EsignLayout.tsx'),
  office: () => import('./OfficeLayout.tsx'),
  welcome: () => import('./WelcomeLayout.tsx'),
};
