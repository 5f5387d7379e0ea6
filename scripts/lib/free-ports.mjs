// Free loopback ports, chosen synchronously (Playwright's config is evaluated synchronously): a child
// node process binds port 0 n times at once, prints the ports the system gave it, and closes them.
import { execFileSync } from 'node:child_process';

const PROGRAM = `
const net = require('node:net');
const n = Number(process.argv[1]);
const servers = Array.from({ length: n }, () => net.createServer());
Promise.all(servers.map((s) => new Promise((r) => s.listen(0, '127.0.0.1', () => r(s.address().port))))).then((ports) => {
  process.stdout.write(ports.join(','));
  for (const s of servers) s.close();
});`;

/** `n` distinct loopback ports nobody listened on a moment ago. */
export function freePortsSync(n) {
  const out = execFileSync(process.execPath, ['-e', PROGRAM, String(n)], { encoding: 'utf8' });
  return out.split(',').map(Number);
}
