/**
 * Actions are data (docs/decisions/0040): navigate, dialog, closeDialog, submit, download, toast, reset, setSession,
 * signIn, signOut, reload, handleRedirect, notFound. `runActions` interprets a list against a runtime the React side
 * provides, so it is unit-tested with a fake runtime. A failing submit or download stops the list.
 */
import type { Action, Target } from '../../codegen/generated/descriptors.ts';
import { bind, condition, evaluate, text, type Context } from '../../core/expressions.ts';
import { resolveTarget, type RouteEntry } from './routing.ts';
import type { CallInput, ToastPort } from './services.ts';

export interface ActionRuntime {
  table: readonly RouteEntry[];
  /** The current in-app path with its query ('/auth?p=%2Fhome'). */
  currentPath: string;
  navigate(path: string, replace?: boolean): void;
  /** A non-local address replaces the window location (spec §8); `replace` leaves no history entry. */
  assign(href: string, replace?: boolean): void;
  openDialog(name: string, props: Record<string, unknown>): void;
  closeDialog(): void;
  call(operationId: string, input: CallInput): Promise<unknown>;
  download(operationId: string, input: CallInput): Promise<void>;
  toast: ToastPort;
  setSession(values: Record<string, unknown>): void;
  clearSession(): void;
  signIn(returnPath: string, signUp?: boolean): Promise<void>;
  signOut(): Promise<void>;
  handleRedirect(): Promise<string | null>;
  invalidate(operationIds: readonly string[]): void;
  /** Runs a call under the progress overlay. */
  progress<T>(work: Promise<T>): Promise<T>;
  /** A business rule's refusal of a call, as a sentence; undefined for a failure. */
  refusal(error: unknown): string | undefined;
  /** Shows a refusal where the person acted (beside the button, above the form's buttons); without it, a toast says it. */
  refused?(sentence: string): void;
  /** Set inside a form: its data, and how to reset it. */
  form?: { data: Record<string, unknown>; reset(): void };
  reload?(): void;
  notFound?(): void;
}

/** Null, undefined and '' are not sent: a binding that has nothing to say leaves the parameter out. */
export function compact(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

export function callInput(action: { params?: unknown; query?: unknown; body?: unknown }, context: Context, formData?: Record<string, unknown>): CallInput {
  const input: CallInput = {};
  if (action.params) input.params = compact(bind(action.params as Record<string, unknown>, context));
  if (action.query) input.query = compact(bind(action.query as Record<string, unknown>, context));
  if (action.body || formData) input.body = { ...(formData ?? {}), ...compact(bind(action.body as Record<string, unknown> | undefined, context)) };
  return input;
}

function go(target: Target, context: Context, runtime: ActionRuntime, replace = false): void {
  const resolved = resolveTarget(target, context, runtime.table);
  if (resolved.kind === 'href') runtime.assign(resolved.href, replace);
  else runtime.navigate(resolved.path, replace);
}

/** Runs the actions in order; answers false when one failed (the rest are skipped). */
export async function runActions(actions: readonly Action[] | undefined, context: Context, runtime: ActionRuntime): Promise<boolean> {
  for (const action of actions ?? []) {
    if (!condition(action.when, context, true)) continue;
    switch (action.type) {
      case 'navigate':
        go(action.to, context, runtime, action.replace);
        break;
      case 'dialog':
        runtime.openDialog(action.dialog, bind(action.props as Record<string, unknown> | undefined, context));
        break;
      case 'closeDialog':
        runtime.closeDialog();
        break;
      case 'toast': {
        const message = text(action.message, context);
        if (action.status === 'success') runtime.toast.success(message);
        else if (action.status === 'error') runtime.toast.error(new Error(message));
        else runtime.toast.info(message);
        break;
      }
      case 'setSession':
        runtime.setSession(bind(action.values as Record<string, unknown>, context));
        break;
      case 'reset':
        runtime.form?.reset();
        break;
      case 'reload':
        runtime.reload?.();
        break;
      case 'notFound':
        runtime.notFound?.();
        break;
      case 'signIn': {
        const path = action.returnPath === undefined ? runtime.currentPath : evaluate(action.returnPath, context);
        await runtime.signIn(typeof path === 'string' && path ? path : runtime.currentPath, action.signUp === true);
        break;
      }
      case 'signOut':
        await runtime.signOut();
        runtime.clearSession();
        break;
      case 'handleRedirect': {
        const next = await runtime.handleRedirect();
        if (next) runtime.navigate(next, true);
        else if (!(await runActions(action.otherwise, context, runtime))) return false;
        break;
      }
      case 'submit':
      case 'download': {
        // Inside a form, the form's data is the body unless the action names one.
        const input = callInput(action, context, action.body ? undefined : runtime.form?.data);
        let result: unknown;
        try {
          result =
            action.type === 'submit'
              ? await (action.progress === false ? runtime.call(action.operation, input) : runtime.progress(runtime.call(action.operation, input)))
              : await runtime.progress(runtime.download(action.operation, input));
        } catch (error) {
          const refusal = runtime.refusal(error);
          if (action.onError?.length) await runActions(action.onError, { ...context, error }, runtime);
          else if (refusal !== undefined) (runtime.refused ?? runtime.toast.info)(refusal);
          else runtime.toast.error(error, action.errorTitle === undefined ? undefined : text(action.errorTitle, context));
          return false;
        }
        if (action.invalidates?.length) runtime.invalidate(action.invalidates);
        if (!(await runActions(action.onSuccess, { ...context, result }, runtime))) return false;
        break;
      }
    }
  }
  return true;
}
