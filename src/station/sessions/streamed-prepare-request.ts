import * as z from 'zod';
import { prepareFilesSchemaWith } from '../../core/schemas/signing-session-api.js';
import { StagedDocument } from './staged-document.js';

/** A prepare request as readPrepareBody leaves it: each document's content already decoded into a file. */
export const streamedPrepareRequestSchema = prepareFilesSchemaWith(z.custom<StagedDocument>((value) => value instanceof StagedDocument, 'must be base64 of a document that is not empty'));
export type StreamedPrepareRequest = z.infer<typeof streamedPrepareRequestSchema>;
