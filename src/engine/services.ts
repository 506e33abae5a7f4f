/**
 * What the engine needs from the application, injected (the engine imports no app code): descriptors, session,
 * sign-in port, API calls, toasts, progress, form modules, the message catalogue and the widget registry.
 */
import { createContext, useContext } from 'react';
import type { ComponentType } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import type { BrandDescriptor, ComponentScreen, ConditionsDescriptor, Layout, Widget, LayoutsDescriptor, MenusDescriptor, RoutesDescriptor, ScreenDescriptor } from '../../codegen/generated/descriptors.ts';
import type { MessageCatalogue } from '../../core/messages.ts';
import type { RouteEntry } from './routing.ts';
import type { FormModule } from './form-module.ts';
import type { LabelTable } from '../../core/labels.ts';
import type { ScreenProps } from './screen-props.ts';
import type { LayoutProps } from './layout-props.ts';

export interface EngineDescriptors {
  routes: RoutesDescriptor;
  table: RouteEntry[];
  menus: MenusDescriptor;
  layouts: LayoutsDescriptor;
  conditions: ConditionsDescriptor;
  /** The flow descriptors (screens/lenders/) by code: a flow route's screens see theirs as `flow`. */
  flows?: Record<string, Record<string, unknown>>;
}

export interface SessionPort {
  get(): Record<string, unknown>;
  update(partial: Record<string, unknown>): void;
  clear(): void;
  subscribe(listener: () => void): () => void;
}

export interface AuthLike {
  signIn(returnPath: string, signUp?: boolean): Promise<void>;
  signOut(): Promise<void>;
  handleRedirect(): Promise<string | null>;
}

export interface CallInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface DownloadResult {
  blob: Blob;
  fileName: string;
}

export interface ApiPort {
  call(operationId: string, input: CallInput): Promise<unknown>;
  download(operationId: string, input: CallInput): Promise<DownloadResult>;
  /** Does the operation only read (GET)? An action that calls one shares the page's query of the same request. */
  reads(operationId: string): boolean;
  /** A business rule's refusal of a call, as a sentence for the person who acted; undefined for a failure. */
  refusal(error: unknown): string | undefined;
}

export interface ToastPort {
  success(message: string): void;
  info(message: string): void;
  /** The error toast of spec §8; `title` replaces its first line. */
  error(error: unknown, title?: string): void;
}

export interface IconProps {
  size?: number | string;
  'aria-hidden'?: boolean | 'true' | 'false';
}

/** An @rjsf widget of the default registry a vocabulary name may stand for. */
export type RjsfWidgetName = 'TextWidget' | 'EmailWidget' | 'PasswordWidget' | 'UpDownWidget';

/** Widgets for form fields, loaded with the form screen. */
export interface WidgetRegistry {
  /** A component, or an @rjsf default widget, for each name of the vocabulary (common.schema.json#/$defs/widget) a field can show. */
  widgets: Record<Exclude<Widget, 'hidden'>, ComponentType<WidgetProps> | RjsfWidgetName>;
  /** Components for the names @rjsf picks by itself for a schema without a widget (an enumeration, a boolean). */
  schemaDefaults: Record<'SelectWidget' | 'CheckboxWidget', ComponentType<WidgetProps>>;
  StatusChip: ComponentType<{ value: unknown }>;
  /** Loads the code most forms' fields need, ahead of their first render. */
  preloadFields(): Promise<unknown>;
}

export interface BrandInfo {
  descriptor: BrandDescriptor;
  /** The primary or the alternate name, as the address asks. */
  name: string;
}

/** A component's code, loaded when first needed. */
type Code<P> = () => Promise<{ default: ComponentType<P> }>;
/** The screen components by descriptor kind (screens/index.ts). */
export type ScreenKinds = Record<ScreenDescriptor['kind'], Code<ScreenProps<never>>>;
/** The layout components by the `component` of a layout (layouts/index.ts). */
export type LayoutComponents = Record<Layout['component'], Code<LayoutProps>>;
/** The app's own screens by the `component` of a component screen (the studio). */
export type AppComponents = Record<ComponentScreen['component'], Code<Record<string, never>>>;

export interface EngineServices {
  descriptors: EngineDescriptors;
  brand: BrandInfo;
  loadScreen(name: string, place: 'pages' | 'dialogs'): Promise<ScreenDescriptor>;
  /** The renderers of screens and layouts: the engine names no component itself, so any can be replaced or added. */
  screenKinds: ScreenKinds;
  layoutComponents: LayoutComponents;
  components: AppComponents;
  session: SessionPort;
  auth: () => AuthLike;
  api: ApiPort;
  toast: ToastPort;
  forms: Record<string, () => Promise<FormModule>>;
  /** The words of a table a format names: 'label:<Enumeration>' or 'config:<Type>' (labels.ts). */
  labels(format: string): Promise<LabelTable>;
  messages: MessageCatalogue;
  widgets: () => Promise<WidgetRegistry>;
  /** Icons by name (lucide, imported by path), loaded with the first layout that shows one. */
  icons: () => Promise<Record<string, ComponentType<IconProps>>>;
  /** Runs a call under the global progress overlay (writes) — reads only move the loading bar. */
  progress<T>(work: Promise<T>): Promise<T>;
  /** Feature flags from the config items (empty until they load, or when they fail). */
  useFlags(): Record<string, boolean>;
  /** The languages a layout's picker offers (screens/languages/) and how to switch (decision 0216). */
  languages: LanguagePort;
}

export interface LanguagePort {
  list: ReadonlyArray<{ locale: string; name: string }>;
  choose(locale: string): Promise<void>;
}

export const EngineContext = createContext<EngineServices | null>(null);

export function useEngine(): EngineServices {
  const services = useContext(EngineContext);
  if (!services) throw new Error('EngineContext is missing');
  return services;
}
