import { InvalidArgumentError } from 'commander';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535');
  return port;
}
