// Drives the station's login pages over plain HTTP, as a browser without script would (cookies, 303s, the form
// post, the self-refreshing wait page): a fast, real flow for the token endpoint's negative cases.
export interface HttpLoginForm {
  method: string;
  idcode?: string;
  phone?: string;
  country?: string;
}

export interface HttpLoginResult {
  /** The URL the station finally sent the browser to (the client's redirect_uri with code and state, or error). */
  callback: URL;
  /** HTTP status of the response that sent the browser to the callback. */
  callbackStatus: number;
  pages: string[];
}

/** The browser's cookies for the station: pass one jar to several logins to act as the same browser. */
export class CookieJar {
  readonly #cookies = new Map<string, string>();
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(header)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export interface HttpLoginOptions {
  jar?: CookieJar;
  /** The answer on the consent page (default allow). */
  consent?: 'allow' | 'deny';
}

export async function loginOverHttp(stationBaseUrl: string, authorizationUrl: URL, form: HttpLoginForm, options: HttpLoginOptions = {}): Promise<HttpLoginResult> {
  const jar = options.jar ?? new CookieJar();
  const pages: string[] = [];
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  let lastStatus = 0;
  for (let step = 0; step < 200; step++) {
    if (url.origin !== stationBaseUrl) return { callback: url, callbackStatus: lastStatus, pages };
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded', origin: stationBaseUrl } : {}),
      },
      ...(body ? { body } : {}),
    });
    jar.store(response);
    lastStatus = response.status;
    body = undefined;
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url);
      continue;
    }
    const html = await response.text();
    pages.push(html);
    if (response.status !== 200) throw new Error(`login page answered ${response.status}: ${html}`);
    const refresh = /<meta http-equiv="refresh" content="\d+;url=([^"]+)"/.exec(html);
    if (refresh) {
      url = new URL(refresh[1]!.replace(/&amp;/g, '&'), url);
      continue;
    }
    const consent = /<form method="post" action="([^"]+)" class="consent">/.exec(html);
    if (consent) {
      url = new URL(consent[1]!, url);
      body = new URLSearchParams({ decision: options.consent ?? 'allow' });
      continue;
    }
    const action = /<form method="post" action="([^"]+)" class="method" data-method="([^"]+)"/g;
    let match: RegExpExecArray | null;
    let target: string | undefined;
    while ((match = action.exec(html))) if (match[2] === form.method) target = match[1];
    if (!target) throw new Error(`no form for ${form.method} on the login page`);
    url = new URL(target, url);
    body = new URLSearchParams(Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined));
  }
  throw new Error('login did not finish');
}
