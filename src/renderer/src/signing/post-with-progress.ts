import { uiCredential } from '../ui-credential.js';

/**
 * POSTs JSON to the station and reports how much of the body has gone up: large documents take a while, and
 * fetch cannot tell upload progress. Resolves with the parsed answer; a non-2xx answer rejects with the station's
 * message.
 */
export async function postWithProgress<T>(path: string, body: unknown, onProgress: (fraction: number) => void): Promise<T> {
  const credential = await uiCredential();
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    request.setRequestHeader('authorization', `Bearer ${credential}`);
    request.setRequestHeader('content-type', 'application/json');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const answer = request.responseText ? (JSON.parse(request.responseText) as T & { message?: string }) : (undefined as T);
      if (request.status >= 200 && request.status < 300) resolve(answer);
      else reject(new Error((answer as { message?: string } | undefined)?.message ?? `The station answered HTTP ${request.status}.`));
    };
    request.onerror = () => reject(new Error('The station could not be reached.'));
    request.send(JSON.stringify(body));
  });
}
