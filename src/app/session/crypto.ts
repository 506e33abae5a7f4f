/**
 * The encrypted form of the session state in sessionStorage (docs/decisions/0043-session-store.md):
 * 'v1.' + base64(12-byte IV ‖ AES-GCM ciphertext of the JSON). Pure WebCrypto: runs in browsers and in Node.
 */
const VERSION = 'v1.';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** A new per-tab key: AES-GCM 256, not extractable, so script can use it but never read its bytes. */
export function generateSessionKey(subtle: SubtleCrypto = crypto.subtle): Promise<CryptoKey> {
  return subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

export async function encryptState(key: CryptoKey, state: unknown, subtle: SubtleCrypto = crypto.subtle): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(state));
  const cipher = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv }, key, plain));
  const out = new Uint8Array(iv.length + cipher.length);
  out.set(iv);
  out.set(cipher, iv.length);
  return VERSION + toBase64(out);
}

/** The state, or undefined when the text is not ours, was tampered with or was sealed with another key. */
export async function decryptState<T>(key: CryptoKey, text: string | null, subtle: SubtleCrypto = crypto.subtle): Promise<T | undefined> {
  if (!text || !text.startsWith(VERSION)) return undefined;
  try {
    const bytes = fromBase64(text.slice(VERSION.length));
    const plain = await subtle.decrypt({ name: 'AES-GCM', iv: bytes.subarray(0, 12) }, key, bytes.subarray(12));
    return JSON.parse(new TextDecoder().decode(plain)) as T;
  } catch {
    return undefined;
  }
}
