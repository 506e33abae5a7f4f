/** @rjsf/core's ArrayField, loaded when a form first shows an array (a list of items); few do (decision 0146). */
import type { ComponentType } from 'react';
import type { FieldProps } from '@rjsf/utils';
import { lazyFunction } from '../engine/ui.tsx';

export default lazyFunction(() => import('@rjsf/core/lib/components/fields/ArrayField.js') as Promise<{ default: ComponentType<FieldProps> }>);
