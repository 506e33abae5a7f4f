import type { ScreenKinds } from '../services.ts';

/** Screen components by the `kind` of a screen descriptor, each its own chunk (loaded once: screen-view.tsx). */
export const screenKinds: ScreenKinds = {
  form: () => import('./FormScreen.tsx'),
  wizard: () => import('./WizardScreen.tsx'),
  table: () => import('./TableScreen.tsx'),
  kanban: () => import('./KanbanScreen.tsx'),
  detail: () => import('./DetailScreen.tsx'),
  dialog: () => import('./ChoiceScreen.tsx'),
  composite: () => import('./CompositeScreen.tsx'),
  component: () => import('./ComponentScreen.tsx'),
  report: () => import('./ReportScreen.tsx'),
};
