// The one entry point to @peculiar/x509 in the station: it needs a Reflect metadata polyfill (tsyringe) and a
// WebCrypto provider before first use. Import x509 from here, never from the package directly.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// Node's webcrypto is the WebCrypto `Crypto` the library types; the DOM lib that names it is not in the Node build.
x509.cryptoProvider.set(webcrypto as never);

export { x509 };
