/** @rjsf/core's MultiSchemaField, loaded when a form first shows an anyOf or oneOf choice; display schemas lose their combinators at codegen time (decision 0146). */
import type { ComponentType } from 'react';
import type { FieldProps } from '@rjsf/utils';
import { lazyFunction } from '../engine/ui.tsx';

export default lazyFunction(() => import('@rjsf/core/lib/components/fields/MultiSchemaField.js') as Promise<{ default: ComponentType<FieldProps> }>);
