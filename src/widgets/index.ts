/**
 * The widget registry the engine loads with its form and table screens (src/app wires it in). Field widgets are lazy
 * components, so a form loads the code of the widgets it shows and no other (the passcode entry, for one, is large).
 */
import { createElement, lazy, type FunctionComponent, type LazyExoticComponent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import type { WidgetRegistry } from '../engine/services.ts';
import { StatusChip } from './StatusChip.tsx';

const fields = () => import('./fields.tsx');
type FieldsModule = Awaited<ReturnType<typeof fields>>;
/** @rjsf accepts only function (or memo/forwardRef) widgets, so each lazy one is wrapped in a function. */
const wrap = (Lazy: LazyExoticComponent<FunctionComponent<WidgetProps>>): FunctionComponent<WidgetProps> => (props) => createElement(Lazy, props);
const field = (name: keyof FieldsModule) => wrap(lazy(() => fields().then((m) => ({ default: m[name] as FunctionComponent<WidgetProps> }))));

const SelectWidget = field('SelectWidget');
const CheckboxWidget = field('CheckboxWidget');

export const registry: WidgetRegistry = {
  widgets: {
    phone: field('PhoneWidget'),
    date: field('DateWidget'),
    currency: field('CurrencyWidget'),
    select: SelectWidget,
    configSelect: field('ConfigSelectWidget'),
    checkbox: CheckboxWidget,
    confirm: field('ConfirmWidget'),
    textarea: field('TextareaWidget'),
    file: wrap(lazy(() => import('./file.tsx'))),
    otp: wrap(lazy(() => import('./otp.tsx'))),
    kba: wrap(lazy(() => import('./kba.tsx'))),
    signature: wrap(lazy(() => import('./signature.tsx'))),
    // @rjsf's own names, for schema-driven defaults (enums, booleans).
    SelectWidget,
    CheckboxWidget,
  } as WidgetRegistry['widgets'],
  StatusChip,
};
