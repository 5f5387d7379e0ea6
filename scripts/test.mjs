#!/usr/bin/env node
// `npm test`: every check a change must pass, in the order that fails fastest. Stops at the first red
// step, and ends with one summary line: Lantern's own tests (unit, integration, e2e) as `N passed,
// N failed`, then the devnets' own checks apart (they test the test chains, not Lantern).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from './lib/chromium.mjs';
import { CANARY_DATA_API_KEY, CANARY_SESSION_SECRET } from '../tests/support/canaries.mjs';

const browser = chromiumPath();
if (!browser) {
  console.error(
    'npm test needs Chromium for the browser tests, and none was found.\n' +
      "Install Debian's package:  sudo apt-get install chromium\n" +
      'or point CHROMIUM_PATH at a Chromium binary.',
  );
  process.exit(1);
}

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CHROMIUM_PATH: browser };
// The production build is made with known secrets so tests can prove neither reaches the browser.
const buildEnv = { ...env, DATA_API_KEY: CANARY_DATA_API_KEY, SESSION_SECRET: CANARY_SESSION_SECRET };

const only = process.argv.slice(2);
const steps = [
  ['typegen', 'npx', ['next', 'typegen'], env],
  ['typecheck', 'npx', ['tsc', '--noEmit'], env],
  ['lint', 'npx', ['eslint', '.', '--max-warnings=0'], env],
  ['unit', 'npx', ['vitest', 'run', '--project', 'unit'], env],
  // The devnets' own checks: the test chains work, which says nothing about Lantern, so apart.
  ['devnet', 'npx', ['vitest', 'run', '--project', 'devnet'], env],
  ['build', 'npx', ['next', 'build'], buildEnv],
  ['integration', 'npx', ['vitest', 'run', '--project', 'integration'], env],
  ['e2e', 'npx', ['playwright', 'test'], env],
].filter(([name]) => only.length === 0 || only.includes(name));

// Lantern's tests and the devnets' own checks are counted apart: the devnet step says nothing about Lantern.
const totals = { passed: 0, failed: 0, skipped: 0 };
const devnetTotals = { passed: 0, failed: 0, skipped: 0 };
const timings = [];
const perStep = [];

for (const [name, cmd, args, stepEnv] of steps) {
  if (name === 'integration' && !existsSync('.next/BUILD_ID')) {
    console.error('integration tests need a production build: run `npm test` (or `npm run build`) first');
    process.exit(1);
  }
  console.log(`\n== ${name}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const { code, output } = await run(cmd, args, stepEnv);
  timings.push(`${name} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const step = count(output);
  if (step.passed + step.failed + step.skipped > 0) {
    perStep.push(`${name} ${step.passed} passed, ${step.failed} failed`);
    const into = name === 'devnet' ? devnetTotals : totals;
    for (const k of Object.keys(step)) into[k] += step[k];
  }
  if (code !== 0) {
    console.error(`\n== ${name} failed (exit ${code})`);
    summary();
    process.exit(code || 1);
  }
}
summary();

function summary() {
  console.log(`\n== timings: ${timings.join(', ')}`);
  if (perStep.length) console.log(`== tests by step: ${perStep.join('; ')}`);
  // The last line, parsed by tools: Lantern's count first (`N passed, N failed`), the devnets' after it.
  const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
  const devnetSkipped = devnetTotals.skipped ? `, ${devnetTotals.skipped} skipped` : '';
  console.log(
    `${totals.passed} passed, ${totals.failed} failed${skipped} (Lantern); ` +
      `devnet checks: ${devnetTotals.passed} passed, ${devnetTotals.failed} failed${devnetSkipped}`,
  );
}

/** One step's counts from its output (vitest's or Playwright's summary). */
function count(output) {
  const step = { passed: 0, failed: 0, skipped: 0 };
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  // vitest: "      Tests  12 passed | 1 skipped (13)" / "Tests  1 failed | 11 passed (12)"
  const v = plain.match(/^\s*Tests\s+(.+)\(\d+\)\s*$/m);
  if (v) {
    for (const m of v[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) step[m[2] === 'todo' ? 'skipped' : m[2]] += Number(m[1]);
  }
  // playwright: "  5 passed (10.2s)", "  1 failed", "  2 skipped"
  for (const m of plain.matchAll(/^\s+(\d+) (passed|failed|skipped|flaky)(?: \(.*\))?\s*$/gm)) {
    step[m[2] === 'flaky' ? 'passed' : m[2]] += Number(m[1]);
  }
  return step;
}

function run(cmd, args, stepEnv) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: stepEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      output += d;
      process.stderr.write(d);
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}
