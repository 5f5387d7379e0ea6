// Locating and running the anvil binary from npm (@foundry-rs/anvil). We spawn the platform
// binary directly, not the node wrapper in node_modules/.bin, so stop() signals anvil itself
// and no wrapper or orphan survives.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Absolute path of the anvil executable; ANVIL_BIN overrides. */
export function resolveAnvilBinary() {
  if (process.env.ANVIL_BIN) return process.env.ANVIL_BIN;
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch] ?? process.arch;
  const platform = { win32: 'win32' }[process.platform] ?? process.platform;
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  const candidates = [];
  try {
    const pkg = require.resolve(`@foundry-rs/anvil-${platform}-${arch}/package.json`, { paths: [repoRoot] });
    candidates.push(path.join(path.dirname(pkg), 'bin', exe));
  } catch {
    // not resolvable: fall through to the fixed paths
  }
  candidates.push(
    path.join(repoRoot, 'node_modules', '@foundry-rs', `anvil-${platform}-${arch}`, 'bin', exe),
    path.join(repoRoot, 'node_modules', '.bin', 'anvil'),
  );
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`anvil binary not found (looked in ${candidates.join(', ')}); run npm install`);
  return found;
}

export function anvilVersion(bin = resolveAnvilBinary()) {
  return execFileSync(bin, ['--version'], { encoding: 'utf8' }).split('\n')[0].trim();
}

/**
 * Spawns anvil and resolves once it answers eth_chainId.
 * @param {{ port: number, host?: string, args?: string[], log?: (line: string) => void, timeoutMs?: number }} o
 */
export async function spawnAnvil({ port, host = '127.0.0.1', args = [], log, timeoutMs = 20_000 }) {
  const bin = resolveAnvilBinary();
  // --silent: anvil otherwise logs every RPC method name; errors still reach stderr.
  const child = spawn(bin, ['--silent', '--host', host, '--port', String(port), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (buf) => {
    const s = buf.toString();
    if (output.length < 20_000) output += s;
    if (log) for (const line of s.split('\n')) if (line.trim()) log(line);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let exitInfo = null;
  exited.then((e) => { exitInfo = e; });

  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitInfo) throw new Error(`anvil exited (${JSON.stringify(exitInfo)}) before answering:\n${output}`);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`anvil did not answer on ${url} within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  let stopping = null;
  async function stop() {
    if (exitInfo) return;
    stopping ??= (async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  }
  // Never leave anvil behind when the parent goes away.
  const onExit = () => { if (!exitInfo) child.kill('SIGKILL'); };
  process.once('exit', onExit);
  exited.then(() => process.removeListener('exit', onExit));

  return { url, pid: child.pid, child, stop, output: () => output };
}
