import { describe, expect, it } from 'vitest';
import { ConsentBatches } from '../../../src/station/sessions/consent-batches.js';

const CLIENT = 'signing-station-desk';
const WINDOW = 'http://127.0.0.1:27420';
const certificate = new Uint8Array([1, 2, 3, 4]);

function agreedBatch(): ConsentBatches {
  const batches = new ConsentBatches();
  batches.add(CLIENT, ['a', 'b', 'c']);
  batches.answered(CLIENT, 'a', certificate, WINDOW, true);
  return batches;
}

describe('documents signed separately under one consent (a batch)', () => {
  it('lists every document of the batch in order, and a document outside any batch alone', () => {
    const batches = new ConsentBatches();
    batches.add(CLIENT, ['a', 'b', 'c']);
    expect(batches.documentsWith(CLIENT, 'b')).toEqual(['a', 'b', 'c']);
    expect(batches.documentsWith(CLIENT, 'z')).toEqual(['z']);
    expect(batches.documentsWith('other-client', 'b')).toEqual(['b']);
  });

  it('once agreed, each other document starts once without a prompt, with the same certificate from the same origin', () => {
    const batches = agreedBatch();
    expect(batches.takeAgreement(CLIENT, 'b', new Uint8Array(certificate), WINDOW)).toBe(true);
    expect(batches.takeAgreement(CLIENT, 'b', certificate, WINDOW)).toBe(false);
    expect(batches.takeAgreement(CLIENT, 'c', certificate, WINDOW)).toBe(true);
  });

  it('asks again for the document the consent was given on (a second start of it)', () => {
    expect(agreedBatch().takeAgreement(CLIENT, 'a', certificate, WINDOW)).toBe(false);
  });

  it('asks again with another certificate, from another origin, or for another client', () => {
    const batches = agreedBatch();
    expect(batches.takeAgreement(CLIENT, 'b', new Uint8Array([1, 2, 3, 5]), WINDOW)).toBe(false);
    expect(batches.takeAgreement(CLIENT, 'b', certificate, 'https://elsewhere.example')).toBe(false);
    expect(batches.takeAgreement(CLIENT, 'b', certificate, undefined)).toBe(false);
    expect(batches.takeAgreement('other-client', 'b', certificate, WINDOW)).toBe(false);
    expect(batches.takeAgreement(CLIENT, 'b', certificate, WINDOW)).toBe(true);
  });

  it('covers nothing before the consent is answered, and nothing after it was declined', () => {
    const batches = new ConsentBatches();
    batches.add(CLIENT, ['a', 'b']);
    expect(batches.takeAgreement(CLIENT, 'b', certificate, WINDOW)).toBe(false);
    batches.answered(CLIENT, 'a', certificate, WINDOW, false);
    expect(batches.takeAgreement(CLIENT, 'b', certificate, WINDOW)).toBe(false);
    expect(batches.documentsWith(CLIENT, 'b')).toEqual(['b']);
  });
});
