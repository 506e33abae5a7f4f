import type { ActionRuntime } from '../../src/engine/actions.ts';
import type { RouteEntry } from '../../src/engine/routing.ts';
import { refusalOf } from '../../src/app/api/problem.ts';

/** An action runtime that does nothing (src/engine/actions.ts); a test overrides what it records or answers. */
export function fakeRuntime(table: readonly RouteEntry[], overrides: Partial<ActionRuntime> = {}): ActionRuntime {
  return {
    table,
    currentPath: '/',
    navigate: () => undefined,
    assign: () => undefined,
    openDialog: () => undefined,
    closeDialog: () => undefined,
    call: async () => ({}),
    download: async () => undefined,
    toast: { success: () => undefined, info: () => undefined, error: () => undefined },
    refusal: refusalOf,
    setSession: () => undefined,
    clearSession: () => undefined,
    signIn: async () => undefined,
    signOut: async () => undefined,
    handleRedirect: async () => null,
    invalidate: () => undefined,
    progress: <T>(work: Promise<T>) => work,
    ...overrides,
  };
}
