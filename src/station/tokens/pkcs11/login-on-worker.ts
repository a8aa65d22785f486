import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import pkcs11js from 'pkcs11js';

/**
 * C_Login for a session the station opened, run on a worker thread. pkcs11js has no asynchronous C_Login, and a
 * login can take long: a card verifies its PIN in hundreds of milliseconds, and on a PIN-pad reader (protected
 * authentication path) C_Login returns only once the user has typed the PIN on the reader. On the event loop that
 * would stop every request, the window's pushed state and the other tokens meanwhile.
 *
 * The worker loads the same library (dlopen returns the loaded one, with its state; given the checked descriptor
 * of a user-added module, so a file swapped in under its name since is not what the thread opens) and calls C_Login on the
 * session handle, which is valid process-wide; the module was initialised with CKF_OS_LOCKING_OK, so a call from
 * another thread is allowed. It never initialises or finalises the library. A refusal comes back as the
 * Pkcs11Error the caller would have seen on the event loop (same return value), so its handling is unchanged.
 *
 * The PIN crosses as bytes: a copy is moved (transferred, not cloned) to the thread, which zeroes it after
 * C_Login. pkcs11js takes the PIN only as a JS string, which V8 cannot overwrite; made there, that string lives in
 * the login thread's heap, discarded when the thread ends right after, never in the station's long-lived one.
 * The caller zeroes its own bytes. `undefined` is a PIN-pad login: a zero-length PIN, which a module with a
 * protected authentication path reads as "ask the reader" (pkcs11js cannot pass NULL_PTR).
 */
export async function loginOnWorker(modulePath: string, session: Buffer, userType: number, pin: Uint8Array | undefined): Promise<void> {
  const moved = pin ? new Uint8Array(pin) : undefined;
  const answer = await new Promise<WorkerAnswer>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { pkcs11js: pkcs11jsPath(), modulePath, session, userType, pin: moved },
      transferList: moved ? [moved.buffer] : [],
    });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the PKCS#11 login thread ended (exit code ${code}) without an answer`)));
  });
  if (!answer.ok) throw new pkcs11js.Pkcs11Error(answer.message, answer.code, 'C_Login');
}

type WorkerAnswer = { ok: true } | { ok: false; message: string; code: number };

// Plain CommonJS: the worker evaluates it as is, outside the bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pkcs11js = require(workerData.pkcs11js);
const library = new pkcs11js.PKCS11();
library.load(workerData.modulePath);
const pin = workerData.pin;
try {
  library.C_Login(workerData.session, workerData.userType, pin ? Buffer.from(pin.buffer, pin.byteOffset, pin.byteLength).toString('utf8') : '');
  parentPort.postMessage({ ok: true });
} catch (error) {
  parentPort.postMessage({ ok: false, message: String(error && error.message), code: Number(error && error.code) || 0 });
} finally {
  if (pin) pin.fill(0);
}
`;

let resolved: string | undefined;
function pkcs11jsPath(): string {
  resolved ??= createRequire(import.meta.url).resolve('pkcs11js');
  return resolved;
}
