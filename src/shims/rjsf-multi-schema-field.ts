/**
 * @rjsf/core's MultiSchemaField, loaded when a form first shows an anyOf or oneOf choice: the engine's forms have their combinators
 * removed at codegen time and few have arrays, so the borrower's form does not carry it (decision 0046).
 */
import { createElement, lazy, type ComponentType } from 'react';
import type { FieldProps } from '@rjsf/utils';

const Field = lazy(() => import('@rjsf/core/lib/components/fields/MultiSchemaField.js') as Promise<{ default: ComponentType<FieldProps> }>);

export default function LazyMultiSchemaField(props: FieldProps) {
  return createElement(Field, props);
}
