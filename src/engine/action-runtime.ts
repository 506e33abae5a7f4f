/** The runtime the engine's actions act on (./actions.ts), made of the router, the dialogs, the query cache and the services. */
import { useContext, useMemo } from 'react';
import { UNSAFE_NavigationContext } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { ActionRuntime } from './actions.ts';
import { useEngine } from './services.ts';
import { DialogsContext } from './contexts.ts';
import { currentHashPath } from './use-context.ts';
import { requestKey } from './queries.ts';

/**
 * What actions act on. It does not follow the location (the router's navigator, and the current path read when an
 * action runs): screens that hold buttons do not render again on every navigation, which would also delay the next
 * screen (a navigation renders in a transition together with every subscriber of the location).
 */
export function useActionRuntime(overrides?: Partial<ActionRuntime>): ActionRuntime {
  const services = useEngine();
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const dialogs = useContext(DialogsContext);
  const queryClient = useQueryClient();
  return useMemo<ActionRuntime>(
    () => ({
      table: services.descriptors.table,
      get currentPath() {
        return currentHashPath();
      },
      navigate: (path, replace) => (replace ? navigator.replace(path) : navigator.push(path)),
      assign: (href, replace) => (replace ? window.location.replace(href) : window.location.assign(href)),
      openDialog: dialogs.open,
      closeDialog: () => dialogs.close(),
      // A read joins the page's query of the same request (a source and an onLoad reading one record make one call)
      // and leaves its answer there; it is always read anew, as an action means to.
      call: (id, input) =>
        services.api.reads(id)
          ? queryClient.fetchQuery({ queryKey: [id, requestKey(input)], queryFn: () => services.api.call(id, input), staleTime: 0 })
          : services.api.call(id, input),
      download: async (id, input) => {
        const { blob, fileName } = await services.api.download(id, input);
        const url = URL.createObjectURL(blob);
        const a = document.createElement('a');
        a.href = url;
        a.download = fileName;
        a.click();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      },
      toast: services.toast,
      refusal: (error) => services.api.refusal(error),
      setSession: (values) => services.session.update(values),
      clearSession: () => services.session.clear(),
      signIn: (returnPath, signUp) => services.auth().signIn(returnPath, signUp),
      signOut: () => services.auth().signOut(),
      handleRedirect: () => services.auth().handleRedirect(),
      invalidate: (ids) => {
        for (const id of ids) void queryClient.invalidateQueries({ queryKey: [id] });
      },
      progress: (work) => services.progress(work),
      ...overrides,
    }),
    [services, navigator, dialogs, queryClient, overrides],
  );
}
