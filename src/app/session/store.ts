/**
 * The session state of spec §3 in sessionStorage, encrypted with AES-GCM (docs/decisions/0043-session-store.md).
 *
 * - One key per tab: AES-GCM 256, generated non-extractable, held in memory; for reloads of the same tab it is kept
 *   in IndexedDB under a random tab id that sits in sessionStorage. Script can use the key but never read its bytes.
 * - sessionStorage holds only 'v1.' + base64(IV ‖ ciphertext). Tampered or foreign text decrypts to nothing and the
 *   session starts empty.
 * - Reads are synchronous from memory; writes encrypt in the background, in order.
 *
 * API for sign-in (src/app/auth/) and the engine: session.get(), session.update(partial), session.clear(),
 * session.subscribe(listener), session.ready; useSession() in React.
 */
import { TAB_KEYS } from '../../../core/tab-keys.ts';
import { useSyncExternalStore } from 'react';
import { EMPTY_SESSION, type SessionState } from './state.ts';
import { decryptState, encryptState, generateSessionKey } from './crypto.ts';
import { appMode } from '../mode.ts';

export const STORAGE_KEY = TAB_KEYS.session;
export const TAB_KEY = 'pos.session.tab';
export const KEY_DB = 'pos-session-keys';
export const KEY_STORE = 'keys';
/** Keys of tabs not seen for this long are deleted. */
const KEY_MAX_AGE_MS = 7 * 24 * 3600_000;

type Listener = (state: SessionState) => void;

function openKeyDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(KEY_DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(KEY_STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function idb<T>(db: IDBDatabase, mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const request = run(db.transaction(KEY_STORE, mode).objectStore(KEY_STORE));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

interface StoredKey {
  key: CryptoKey;
  seenAt: number;
}

/** This tab's key: from IndexedDB when the tab reloads, otherwise new. Falls back to memory only. */
async function tabKey(): Promise<CryptoKey> {
  let tab = sessionStorage.getItem(TAB_KEY);
  if (!tab) {
    tab = crypto.randomUUID();
    sessionStorage.setItem(TAB_KEY, tab);
  }
  try {
    const db = await openKeyDb();
    const stored = await idb<StoredKey | undefined>(db, 'readonly', (s) => s.get(tab) as IDBRequest<StoredKey | undefined>);
    const key = stored?.key ?? (await generateSessionKey());
    await idb(db, 'readwrite', (s) => s.put({ key, seenAt: Date.now() } satisfies StoredKey, tab));
    void pruneKeys(db, tab);
    return key;
  } catch {
    return generateSessionKey();
  }
}

async function pruneKeys(db: IDBDatabase, keep: string): Promise<void> {
  const keys = await idb<IDBValidKey[]>(db, 'readonly', (s) => s.getAllKeys());
  for (const id of keys) {
    if (id === keep) continue;
    const stored = await idb<StoredKey | undefined>(db, 'readonly', (s) => s.get(id) as IDBRequest<StoredKey | undefined>);
    if (!stored || Date.now() - stored.seenAt > KEY_MAX_AGE_MS) await idb(db, 'readwrite', (s) => s.delete(id));
  }
}

export class SessionStore {
  private state: SessionState = EMPTY_SESSION;
  private readonly listeners = new Set<Listener>();
  private key: CryptoKey | undefined;
  private writes: Promise<void> = Promise.resolve();
  /** Changed before the stored state was read: the change wins. */
  private dirty = false;
  /** Signing out by redirect (forget): nothing is stored until the next clear. */
  private leaving = false;
  /** Resolves once the stored state has been read (or found missing). */
  readonly ready: Promise<void>;

  constructor(private readonly storage: Storage | null = typeof sessionStorage === 'undefined' ? null : sessionStorage) {
    this.ready = this.storage ? this.load() : Promise.resolve();
  }

  private async load(): Promise<void> {
    this.key = await tabKey();
    const stored = await decryptState<Partial<SessionState>>(this.key, this.storage!.getItem(STORAGE_KEY));
    if (stored && !this.dirty) {
      this.state = { ...EMPTY_SESSION, ...stored, popups: { ...EMPTY_SESSION.popups, ...stored.popups } };
      this.notify();
    }
  }

  get = (): SessionState => this.state;

  update = (partial: Partial<SessionState>): void => {
    this.state = { ...this.state, ...partial };
    this.dirty = true;
    this.notify();
    this.persist();
  };

  /** Sign-out: all session data goes (spec §4); the tab keeps its key. */
  clear = (): void => {
    this.state = EMPTY_SESSION;
    this.dirty = true;
    this.leaving = false;
    this.notify();
    this.writes = this.writes.then(() => this.storage?.removeItem(STORAGE_KEY));
  };

  /**
   * Sign-out by redirect: the stored session goes now and nothing is stored again, so the tab comes back signed out;
   * the page keeps its state until it leaves, so that its route guard does not start a sign-in in the middle of the
   * sign-out (MSAL then throws interaction_in_progress).
   */
  forget = (): Promise<void> => {
    this.leaving = true;
    this.writes = this.writes.then(() => this.storage?.removeItem(STORAGE_KEY));
    return this.writes;
  };

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Waits for pending encrypted writes (tests, before a reload). */
  flush = (): Promise<void> => this.writes;

  private notify(): void {
    for (const listener of this.listeners) listener(this.state);
  }

  private persist(): void {
    const snapshot = this.state;
    this.writes = this.writes
      .then(() => this.ready)
      .then(async () => {
        if (!this.key || !this.storage || snapshot !== this.state || this.leaving) return;
        this.storage.setItem(STORAGE_KEY, await encryptState(this.key, snapshot));
      })
      .catch(() => undefined);
  }
}

/** The tab's session; a studio preview's starts as a visitor who is not signed in, and keeps nothing (decision 0228). */
export const session = new SessionStore(appMode.keepsSession ? undefined : null);

/** The session state, re-rendering on change. */
export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}
