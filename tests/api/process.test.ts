import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../core/contract/documents.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'pos-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('the server process', () => {
  it('refuses a bad setting at start with a message naming the variable', async () => {
    const server = startServer({ PORT: 'eighty', DATABASE_URL: '' });
    expect(await server.exited).toBe(2);
    expect(server.output()).toContain('Configuration error — PORT: must be a whole number');
  });

  it('starts on the embedded database, prints where it listens and the demo accounts, and stops cleanly on SIGTERM', async () => {
    const port = 3300 + Math.floor(Math.random() * 500);
    const server = startServer({ PORT: String(port), DATABASE_URL: '' });
    const deadline = Date.now() + 90_000;
    while (!server.output().includes('Demo accounts') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(server.output()).toContain(`http://localhost:${port}/`);
    expect(server.output()).toContain('office.admin@demo.test');
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
