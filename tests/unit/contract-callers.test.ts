/**
 * Every operation of the contract has a caller (issue 15, decision 0165): a descriptor under screens/ that calls it
 * (an `operation` of a source or an action), a module of src/ that names it (the shell's own calls), or an `x-caller`
 * mark saying who else does. A mark on an operation a screen calls is wrong too: it would hide the operation from
 * this check when the screen goes away.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';
import { bundleOpenApi } from '../../core/contract/bundle.ts';
import { ROOT, type JsonObject } from '../../core/contract/documents.ts';
import { readOperations } from '../../core/contract/operations.ts';
import { filesUnder } from '../../core/files.ts';

const contract = bundleOpenApi();
const operations = readOperations(contract);

/** operationId → the descriptor files whose sources or actions call it (`invalidates` only names what it refreshes). */
function calledByScreens(): Map<string, string[]> {
  const callers = new Map<string, string[]>();
  const visit = (node: unknown, file: string) => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, file));
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'operation' && typeof value === 'string') callers.set(value, [...new Set([...(callers.get(value) ?? []), file])]);
      else visit(value, file);
    }
  };
  for (const descriptor of listDescriptorFiles()) visit(JSON.parse(descriptor.text), descriptor.file);
  return callers;
}

/** operationId → the modules of src/ that name it as a word (the shell calls a few operations itself). */
function namedBySource(ids: readonly string[]): Map<string, string[]> {
  const named = new Map<string, string[]>();
  for (const path of filesUnder(join(ROOT, 'src'))) {
    const text = readFileSync(path, 'utf8');
    for (const id of ids) if (new RegExp(`\\b${id}\\b`).test(text)) named.set(id, [...(named.get(id) ?? []), relative(ROOT, path)]);
  }
  return named;
}

const ids = operations.map((op) => op.operationId);
const screens = calledByScreens();
const source = namedBySource(ids);
const callersOf = (id: string) => [...(screens.get(id) ?? []), ...(source.get(id) ?? [])];

describe('who calls each operation of the contract', () => {
  it('every operation is called by a screen or the web app, or carries x-caller', () => {
    const uncalled = operations.filter((op) => op.caller === undefined && callersOf(op.operationId).length === 0).map((op) => op.operationId);
    expect(uncalled).toEqual([]);
  });

  it('no operation a screen or the web app calls carries x-caller', () => {
    const marked = operations.filter((op) => op.caller !== undefined && callersOf(op.operationId).length > 0).map((op) => `${op.operationId} (${callersOf(op.operationId).join(', ')})`);
    expect(marked).toEqual([]);
  });

  it('a marked operation says why in its description', () => {
    for (const op of operations.filter((o) => o.caller !== undefined)) {
      const { description } = ((contract.paths as JsonObject)[op.path] as JsonObject)[op.method] as { description?: string };
      expect(description ?? '', op.operationId).toContain(`x-caller ${op.caller}`);
    }
  });

  it('the address of a link operation is handed out by the server', () => {
    // A `link` operation is reached through an address another answer carries: some server module must write it.
    const server = filesUnder(join(ROOT, 'server'))
      .filter((path) => !path.includes(join('server', 'contract')))
      .map((path) => readFileSync(path, 'utf8'));
    for (const op of operations.filter((o) => o.caller === 'link')) {
      const prefix = op.path.slice(0, op.path.indexOf('{') === -1 ? undefined : op.path.indexOf('{'));
      expect(server.some((text) => text.includes(prefix)), `${op.operationId}: no server module writes ${prefix}`).toBe(true);
    }
  });

  it('refuses an x-caller value it does not know', () => {
    const document = { paths: { '/api/X/Y': { get: { operationId: 'X_Y', 'x-caller': 'robot' } } } };
    expect(() => readOperations(document)).toThrow('X_Y: x-caller must be one of machine, link, not "robot"');
  });
});
