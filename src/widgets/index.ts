/**
 * The widget registry the engine loads with its form and table screens (src/app wires it in). Field widgets are lazy
 * components, so a form loads the code of the widgets it shows and no other (the passcode entry, for one, is large).
 */
import type { FunctionComponent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import type { WidgetRegistry } from '../engine/services.ts';
import { lazyFunction } from '../engine/ui.tsx';
import { StatusChip } from './StatusChip.tsx';

const fields = () => import('./fields.tsx');
type FieldsModule = Awaited<ReturnType<typeof fields>>;
const field = (name: keyof FieldsModule) => lazyFunction<WidgetProps>(() => fields().then((m) => ({ default: m[name] as FunctionComponent<WidgetProps> })));

const SelectWidget = field('SelectWidget');
const CheckboxWidget = field('CheckboxWidget');

export const registry: WidgetRegistry = {
  widgets: {
    text: 'TextWidget',
    email: 'EmailWidget',
    password: 'PasswordWidget',
    number: 'UpDownWidget',
    phone: field('PhoneWidget'),
    secret: lazyFunction(() => import('./secret.tsx')),
    date: field('DateWidget'),
    datetime: field('DateTimeWidget'),
    currency: field('CurrencyWidget'),
    select: SelectWidget,
    radio: field('RadioWidget'),
    configSelect: field('ConfigSelectWidget'),
    languageSelect: field('LanguageSelectWidget'),
    checkbox: CheckboxWidget,
    confirm: field('ConfirmWidget'),
    textarea: field('TextareaWidget'),
    file: lazyFunction(() => import('./file.tsx')),
    otp: lazyFunction(() => import('./otp.tsx')),
    kba: lazyFunction(() => import('./kba.tsx')),
    signature: lazyFunction(() => import('./signature.tsx')),
  } satisfies WidgetRegistry['widgets'],
  schemaDefaults: { SelectWidget, CheckboxWidget } satisfies WidgetRegistry['schemaDefaults'],
  StatusChip,
  preloadFields: fields,
};
