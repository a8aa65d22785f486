// The one entry point to @peculiar/x509 in the station: it needs a Reflect metadata polyfill (tsyringe) and a
// WebCrypto provider before first use. Import x509 from here, never from the package directly.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export { x509 };
