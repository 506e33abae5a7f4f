/**
 * The tables of words the engine's `label:` and `config:` formats name (decision 0147): enumerations from the generated
 * modules, config item types from the API (value → name).
 */
import type { components } from '../../codegen/generated/api.ts';
import type { LabelTable } from '../../core/labels.ts';
import { callOperation } from './api/client.ts';

type ConfigItem = components['schemas']['ConfigItem'];

export async function loadLabelTable(format: string): Promise<LabelTable> {
  const [kind, name = ''] = format.split(':');
  if (kind === 'config') {
    const items = (await callOperation('Config_GetConfigItems', { params: { type: name } })) as ConfigItem[];
    return Object.fromEntries(items.map((item) => [item.value ?? item.name, item.name]));
  }
  const table = (await import('../../codegen/generated/labels.ts')).labels[name];
  if (!table) throw new Error(`no labels for ${format} (run npm run codegen)`);
  return table;
}
