// A lane runs scenarios one after another with its own X display, D-Bus session bus and
// tauri-driver ports, so that two lanes run side by side without meeting: tauri-driver listens on
// fixed ports, and the app is a single instance per session bus (a second app on the same bus
// hands its arguments to the first and exits).
//
// Lane 0 is the one the runner was started in (the display and bus of `xvfb-run` and
// `dbus-run-session`, driver ports E2E_DRIVER_PORT/E2E_NATIVE_PORT, default 4444/4445). Each
// further lane starts its own `Xvfb` (the same screen as scripts/test asks of xvfb-run) and
// `dbus-daemon --session`, and takes the next two ports.
import { spawn } from 'node:child_process';
import { killPid, waitFor } from './procs.mjs';

const BASE_DRIVER_PORT = Number(process.env.E2E_DRIVER_PORT ?? 4444);
const BASE_NATIVE_PORT = Number(process.env.E2E_NATIVE_PORT ?? 4445);
const SCREEN = '1280x1024x24';

/** Lane 0: the runner's own display, bus and driver ports. */
export const RUNNER_LANE = Object.freeze({
  index: 0,
  ports: { driver: BASE_DRIVER_PORT, native: BASE_NATIVE_PORT },
  env: {},
  close: async () => {},
});

/** Reads `child`'s stream until its first line, or fails when the child exits or `ms` pass. */
function firstLine(child, stream, what, ms = 15000) {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`${what}: nothing said in ${ms} ms`)), ms);
    const done = (f, v) => {
      clearTimeout(timer);
      stream.removeAllListeners('data');
      child.removeAllListeners('exit');
      f(v);
    };
    stream.on('data', (chunk) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) done(resolve, text.slice(0, end).trim());
    });
    child.once('exit', (code, signal) => done(reject, new Error(`${what} exited at start (${code ?? signal})`)));
  });
}

async function stop(child) {
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  if (!child || ended()) return;
  killPid(child.pid, 'SIGTERM');
  await waitFor(ended, { timeoutMs: 5000, what: 'a lane process to end' }).catch(() => killPid(child.pid, 'SIGKILL'));
}

/**
 * Opens lane `index`. Returns `{ index, ports: { driver, native }, env, close() }`: `env` holds
 * the variables that differ from the runner's own environment (none for lane 0).
 */
export async function openLane(index) {
  if (index === 0) return RUNNER_LANE;
  const ports = { driver: BASE_DRIVER_PORT + 2 * index, native: BASE_NATIVE_PORT + 2 * index };
  // -displayfd: Xvfb picks a free display and writes its number once it accepts clients.
  // -noreset: by default the server resets when its last client leaves, and an app restarted
  // in that moment (after a kill -9) cannot open the display.
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', SCREEN, '-nolisten', 'tcp', '-noreset'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  let bus = null;
  try {
    const display = await firstLine(xvfb, xvfb.stdio[3], `Xvfb of lane ${index}`);
    bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const address = await firstLine(bus, bus.stdout, `dbus-daemon of lane ${index}`);
    const env = { DISPLAY: `:${display}`, DBUS_SESSION_BUS_ADDRESS: address };
    return {
      index,
      ports,
      env,
      async close() {
        await stop(bus);
        await stop(xvfb);
      },
    };
  } catch (e) {
    await stop(bus);
    await stop(xvfb);
    throw e;
  }
}
