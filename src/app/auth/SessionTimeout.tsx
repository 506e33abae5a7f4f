/**
 * The 'Session Timeout' dialog of spec §4: a modal <dialog> (focus kept inside, Escape does not close it)
 * with the countdown and 'Stay Logged In'. Rendered by the auth port in a root of its own, so it works on
 * every layout; it reads the brand's primary colour from the engine's CSS variables when present.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { IdleMonitor } from './idle.ts';
import { tr } from '../../../core/current-language.ts';

export function SessionTimeout({ monitor }: { monitor: IdleMonitor }) {
  const state = useSyncExternalStore(monitor.subscribe, monitor.state, monitor.state);
  const dialog = useRef<HTMLDialogElement>(null);
  const open = state.phase === 'warning';
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal?.();
    if (!open && element.open) element.close();
  }, [open]);
  // The countdown sits inside the sentence, wherever the language puts it.
  const [before = '', after = ''] = tr('You have been inactive for a while. For your security you will be signed out in {seconds} seconds.').split('{seconds}');
  return (
    <dialog
      ref={dialog}
      aria-labelledby="session-timeout-title"
      aria-describedby="session-timeout-text"
      onCancel={(event) => event.preventDefault()}
      style={{ border: 0, borderRadius: 12, padding: 0, width: 'min(420px, calc(100vw - 2rem))', boxShadow: '0 8px 40px rgba(0,0,0,.25)', fontFamily: 'inherit' }}
    >
      <div style={{ padding: '1.5rem' }}>
        <h2 id="session-timeout-title" style={{ margin: '0 0 .75rem', fontSize: '1.25rem' }}>
          {tr('Session Timeout')}
        </h2>
        <p id="session-timeout-text" style={{ margin: '0 0 1.25rem' }} aria-live="polite">
          {before}
          <strong data-testid="session-timeout-seconds">{state.phase === 'warning' ? state.secondsLeft : 0}</strong>
          {after}
        </p>
        <button
          type="button"
          autoFocus
          onClick={() => monitor.stay()}
          style={{
            width: '100%', padding: '.75rem', border: 0, borderRadius: 8, fontSize: '1rem', fontWeight: 600, cursor: 'pointer', color: '#fff',
            background: 'var(--chakra-colors-brand-solid, #286df6)',
          }}
        >
          {tr('Stay Logged In')}
        </button>
      </div>
    </dialog>
  );
}
