import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../config.ts';

export interface TlsMaterial {
  key: Buffer;
  cert: Buffer;
  /** Where the certificate is, for the README's "trust the local certificate" step. */
  certFile: string;
  /** True when this start made the certificate. */
  created: boolean;
}

/** Renewed this long before it expires. */
const RENEW_BEFORE_MS = 30 * 86_400_000;
/** Browsers refuse TLS certificates valid for more than 398 days. */
const VALIDITY_DAYS = 397;

export class CertificateError extends Error {}

/**
 * The https certificate: the files of TLS_CERT_FILE/TLS_KEY_FILE, or (TLS_MODE=self-signed) one made
 * on first start under `${DATA_DIR}/tls` and reused afterwards. node:crypto cannot write an X.509
 * certificate and no certificate library is installed, so it is made with the `openssl` command
 * (docs/decisions/0061-https-and-the-local-certificate.md).
 */
export function loadCertificate(settings: Pick<Settings, 'tls' | 'dataDir' | 'publicUrl'>): TlsMaterial | undefined {
  const { tls } = settings;
  if (tls.mode === 'proxy') return undefined;
  if (tls.mode === 'files') {
    return { key: readFileSync(tls.keyFile), cert: readFileSync(tls.certFile), certFile: tls.certFile, created: false };
  }
  const folder = join(settings.dataDir, 'tls');
  const certFile = join(folder, 'localhost.crt');
  const keyFile = join(folder, 'localhost.key');
  const hosts = certificateHosts(settings.publicUrl);
  if (existsSync(certFile) && existsSync(keyFile) && stillGood(readFileSync(certFile), hosts)) {
    return { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile, created: false };
  }
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  makeSelfSigned(folder, certFile, keyFile, hosts);
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile, created: true };
}

/** localhost and the loopback addresses, plus the host of PUBLIC_URL. */
export function certificateHosts(publicUrl: string): string[] {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  return [...new Set(['localhost', '127.0.0.1', '::1', host])];
}

function stillGood(pem: Buffer, hosts: string[]): boolean {
  try {
    const cert = new X509Certificate(pem);
    if (Date.parse(cert.validTo) - Date.now() < RENEW_BEFORE_MS) return false;
    return hosts.every((host) => (/^[\d.]+$|:/.test(host) ? cert.checkIP(host) : cert.checkHost(host)) !== undefined);
  } catch {
    return false;
  }
}

function makeSelfSigned(folder: string, certFile: string, keyFile: string, hosts: string[]): void {
  const san = hosts.map((host) => (/^[\d.]+$|:/.test(host) ? `IP:${host}` : `DNS:${host}`)).join(',');
  const tmpCert = join(folder, `.new-${process.pid}.crt`);
  const tmpKey = join(folder, `.new-${process.pid}.key`);
  const result = spawnSync(
    'openssl',
    [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-sha256',
      '-days', String(VALIDITY_DAYS),
      '-subj', '/O=Patient Financing Portal (local)/CN=localhost',
      '-addext', `subjectAltName=${san}`,
      // A certificate that is its own issuer: trusting it once (README) makes the browser accept it.
      '-addext', 'basicConstraints=critical,CA:TRUE,pathlen:0',
      '-addext', 'keyUsage=critical,digitalSignature,keyCertSign',
      '-addext', 'extendedKeyUsage=serverAuth',
      '-keyout', tmpKey, '-out', tmpCert,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (result.error || result.status !== 0) {
    rmSync(tmpCert, { force: true });
    rmSync(tmpKey, { force: true });
    const why = result.error ? `the openssl command could not be run (${result.error.message})` : result.stderr.trim().split('\n').slice(-2).join(' ');
    throw new CertificateError(
      `Cannot make the local https certificate: ${why}. Install openssl, or set TLS_MODE=files with TLS_CERT_FILE and TLS_KEY_FILE.`,
    );
  }
  chmodSync(tmpKey, 0o600);
  // Renames are atomic, so a second process starting at the same time never reads half a file.
  renameSync(tmpKey, keyFile);
  renameSync(tmpCert, certFile);
}
