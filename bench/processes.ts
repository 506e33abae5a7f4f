import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';
import { ROOT } from './profiles.ts';

/**
 * Every child of the bench (the seeding step, the servers under test) runs `node --import tsx` in
 * the package root and is tracked here, so that the end of the run, an error or Ctrl-C stops them all.
 */
export interface Child {
  name: string;
  process: ChildProcess;
  logFile: string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

const running = new Set<Child>();

/** Environment variables the bench sets itself; inherited values would change what is measured. */
const OWNED = ['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'LOG_LEVEL', 'APP_MODE', 'API_KEYS', 'WEB_API_KEY', 'PUBLIC_URL', 'COMPANY_HOME_URL'];
/** … and every variable of these families (sign-in and TLS settings). */
const OWNED_PREFIXES = ['OIDC_', 'TLS_'];

/** The parent's environment without the variables above, plus `own`. */
export function childEnv(own: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (OWNED.includes(name) || OWNED_PREFIXES.some((prefix) => name.startsWith(prefix))) delete env[name];
  for (const [name, value] of Object.entries(own)) if (value !== undefined) env[name] = value;
  return env;
}

/** A port nobody listens on right now (the OS picks it; released before the child binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/**
 * Starts `node --import tsx <script> ...args`. Its output goes to `logFile`, not through this
 * process, so that the load generator spends no time on it; with `captureStdout` stdout comes here.
 */
export function startChild(name: string, script: string, args: string[], env: NodeJS.ProcessEnv, logFile: string, captureStdout = false): Child {
  mkdirSync(dirname(logFile), { recursive: true });
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', captureStdout ? 'pipe' : fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', () => resolve('spawn failed'));
  });
  const entry: Child = { name, process: child, logFile, exited };
  running.add(entry);
  void exited.then(() => running.delete(entry));
  return entry;
}

/** The last lines of a child's log, for error messages. */
export function logTail(logFile: string, lines = 25): string {
  if (!existsSync(logFile)) return '(no log)';
  return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).map((line) => `    | ${line}`).join('\n');
}

/** Polls `url` until it answers 200; fails early when the child exits, or after `timeoutMs`. */
export async function waitUntilReady(child: Child, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitedWith: number | string | undefined;
  void child.exited.then((code) => (exitedWith = code));
  while (Date.now() < deadline) {
    if (exitedWith !== undefined) throw new Error(`${child.name} exited (${exitedWith}) before it was ready; its log (${child.logFile}):\n${logTail(child.logFile)}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${child.name} was not ready at ${url} within ${timeoutMs / 1000} s; its log (${child.logFile}):\n${logTail(child.logFile)}`);
}

/** SIGTERM (the server closes its database cleanly), then SIGKILL after `graceMs`. */
export async function stopChild(child: Child, graceMs = 15_000): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  child.process.kill('SIGTERM');
  const killer = setTimeout(() => child.process.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(killer);
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child)));
}
