/**
 * The shell: Chakra system for the chosen brand, TanStack Query, the engine (router, layouts, screens) with the
 * app's services, the progress overlay, the toaster (loaded on the first toast) and the error boundary.
 */
import { lazy, startTransition, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import messages from '../../schemas/messages.json';
import type { MessageCatalogue } from '../../core/messages.ts';
import { formModules } from '../../codegen/generated/forms/index.ts';
import type { ConfigItem } from '../../codegen/generated/schemas.ts';
import { loadLabelTable } from './labels.ts';
import { EngineContext, type EngineServices } from '../engine/services.ts';
import { EngineRouter, preloadLocation } from '../engine/router.tsx';
import { screenKinds } from '../engine/screens/index.ts';
import { layoutComponents } from '../engine/layouts/index.ts';
import { FLAG_TYPE, flagsOf } from '../engine/context.ts';
import { brandName, chooseBrand, requestedBrand } from '../../core/brand.ts';
import { createTheme } from './theme.ts';
import { brandsOf, engineDescriptors, screenLoader } from './descriptors.ts';
import { BUILT_SET, type DescriptorSet } from './live-descriptors.ts';
import { appMode } from './mode.ts';
import { session } from './session/store.ts';
import { authPort } from './auth-port.ts';
import { callOperation, downloadOperation, readsOnly } from './api/client.ts';
import { refusalOf } from './api/problem.ts';
import { toasts, onFirstToast } from './ui/toasts.ts';
import { progress, withOverlay } from './ui/progress.ts';
import { ProgressOverlay } from './ui/ProgressOverlay.tsx';
import { handleChunkError } from './chunk-reload.ts';
import { watchHandOver } from './auth/hand-over.ts';
import { onSignInChange } from './session/signed-in-as.ts';
import { forgetRefusals } from '../engine/queries.ts';
import { addressQuery } from '../engine/context.ts';
import { chooseLanguage, languagesOf, retakeLanguage } from './language.ts';
import { onLanguageChange } from '../../core/current-language.ts';
import { followOfficeEvents } from './live-events.ts';

const Toaster = lazy(() => import('./ui/Toaster.tsx'));

function LazyToaster() {
  const [needed, setNeeded] = useState(false);
  useEffect(() => onFirstToast(() => setNeeded(true)), []);
  return needed ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/**
 * Every page reads the feature flags: the config items of their type alone, asked for at start, beside the page's code
 * (issue 17). All the config items (a sevenfold answer) are the signed-in session's (src/app/auth/user-info.ts): a
 * borrower's phone does not fetch them on every view (decision 0299).
 */
const FLAG_ITEMS = {
  queryKey: ['Config_GetConfigItems', { type: FLAG_TYPE }],
  queryFn: () => callOperation('Config_GetConfigItems', { params: { type: FLAG_TYPE } }),
  staleTime: Infinity,
};

/** Feature flags, loaded once; a failure shows nothing and hides the bar (spec §8). */
function useFlags(): Record<string, boolean> {
  const query = useQuery(FLAG_ITEMS);
  useEffect(() => {
    if (query.isError) progress.hide();
  }, [query.isError]);
  const items = query.data as ConfigItem[] | undefined;
  return useMemo(() => flagsOf(items ?? []), [items]);
}

/** The app's services to the engine, for a descriptor set; the brand is chosen by the address. */
function createServices(set: DescriptorSet): EngineServices {
  appMode.showing(set);
  const brand = chooseBrand(brandsOf(set.files), window.location.hostname, requestedBrand(window.location, appMode.tabStorage));
  const query = addressQuery(window.location);
  return {
    descriptors: engineDescriptors(set.files),
    brand: { descriptor: brand, name: brandName(brand, query) },
    loadScreen: screenLoader(set.files),
    screenKinds,
    layoutComponents,
    components: { studio: () => import('./studio/Studio.tsx') },
    session: session as unknown as EngineServices['session'],
    auth: () => authPort(),
    api: { call: callOperation, download: downloadOperation, reads: readsOnly, refusal: refusalOf },
    toast: toasts,
    forms: formModules,
    labels: loadLabelTable,
    messages: messages as unknown as MessageCatalogue,
    widgets: () => import('../widgets/index.ts').then((m) => m.registry),
    icons: () => import('../widgets/icons.ts').then((m) => m.icons),
    progress: withOverlay,
    useFlags,
    languages: { list: languagesOf(set.files), choose: (locale) => chooseLanguage(locale, true, set.files) },
  };
}

/** A set that becomes live while the app is open speaks its words at once: the language read is taken from it too (decision 0238). */
function servicesOfNewSet(set: DescriptorSet): EngineServices {
  void retakeLanguage(set.files);
  return createServices(set);
}

let starting: DescriptorSet = BUILT_SET;
let created: EngineServices | undefined;
const appServices = () => (created ??= createServices(starting));

/** Starts loading the first page's code, descriptors and reads before React renders anything (issue 17). */
export function preloadFirstPage(set: DescriptorSet): void {
  starting = set;
  preloadLocation(appServices());
}

/**
 * A set published while the app is open: taken on the next navigation (the page being read keeps its state); one
 * that arrives because that navigation asked for it is taken at once. A preview takes each draft at once.
 */
function useLiveServices(): [EngineServices, () => void] {
  const [services, setServices] = useState(appServices);
  const pending = useRef<DescriptorSet>();
  const asking = useRef(0);
  useEffect(
    () =>
      appMode.onNewSet((set) => {
        if (appMode.newSetWaits && Date.now() - asking.current >= ASK_WINDOW_MS) pending.current = set;
        // Always in a transition: an update outside one that suspends (every load is per engine) hides the page drawn
        // and shows it again, and @rjsf's form shown again keeps the labels of the set before (it takes new props on
        // an update, not when it reappears).
        else startTransition(() => setServices(servicesOfNewSet(set)));
      }),
    [],
  );
  // Taken in a transition: the page on screen stays until the next one is drawn with the new set.
  const takePending = useCallback((): boolean => {
    const set = pending.current;
    pending.current = undefined;
    if (set) startTransition(() => setServices(servicesOfNewSet(set)));
    return set !== undefined;
  }, []);
  // A change of address from outside the app (a link, the address bar, back) takes the set in the router's own
  // transition, so the next page is drawn once, with it. (Taken after the page is drawn, every load of the page starts
  // again under the new services, and a read that had failed is asked again.)
  useEffect(() => {
    const onAddress = () => void takePending();
    window.addEventListener('popstate', onAddress);
    return () => window.removeEventListener('popstate', onAddress);
  }, [takePending]);
  const navigated = useCallback(() => {
    if (takePending()) return;
    asking.current = Date.now();
    appMode.navigated();
  }, [takePending]);
  return [services, navigated];
}

/** How long after a navigation a set it asked for is still taken at once. */
const ASK_WINDOW_MS = 2_000;

export function App() {
  const [queryClient] = useState(() => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 }, mutations: { retry: false } } });
    void client.prefetchQuery(FLAG_ITEMS);
    return client;
  });
  // A patient signing in where staff is signed in ends the staff session here (decision 0212).
  useEffect(
    () =>
      watchHandOver(session, {
        lockStaff: () => authPort().lock(),
        forgetStaffData: () => queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 }),
      }),
    [queryClient],
  );
  // A refused read stands for the visitor it refused (src/engine/queries.ts), not for the next one to sign in here.
  useEffect(() => onSignInChange(session, () => void forgetRefusals(queryClient)), [queryClient]);
  // What the server said in the language before (texts, answers) is asked for again in the new one.
  useEffect(() => onLanguageChange(() => void queryClient.invalidateQueries()), [queryClient]);
  // The office's events refresh what they change on the open page (issue 39: live screens).
  useEffect(() => (appMode.signsIn ? followOfficeEvents(queryClient) : undefined), [queryClient]);
  const [services, takeLiveSet] = useLiveServices();
  const system = useMemo(() => createTheme(services.brand.descriptor.palette), [services]);
  return (
    <ChakraProvider value={system}>
      <QueryClientProvider client={queryClient}>
        <EngineContext.Provider value={services}>
          {/* The toaster sits in the router: a toast ends with its page (Toaster.tsx). */}
          <EngineRouter onChunkError={handleChunkError} onNavigate={takeLiveSet} onRenderError={appMode.onRenderError}>
            <LazyToaster />
          </EngineRouter>
          <ProgressOverlay />
        </EngineContext.Provider>
      </QueryClientProvider>
    </ChakraProvider>
  );
}
