import { encodeCall, type ApiRequest, type CallName } from '@marketplace/shared/contract';

/** A browser's cookie jar over fetch, enough for the mix. */
export class Browser {
  constructor(
    private readonly base: string,
    private readonly cookies = new Map<string, string>(),
  ) {}

  /** The same browser (its cookies) calling another instance. */
  at(base: string): Browser {
    return new Browser(base, this.cookies);
  }
  async call<K extends CallName>(name: K, request: ApiRequest<K> | Record<string, unknown> = {}) {
    const { method, path, body } = encodeCall(name, request);
    const res = await fetch(`${this.base}${path}`, {
      method,
      body,
      headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [key = '', ...rest] = pair.split('=');
      if (key) this.cookies.set(key.trim(), rest.join('='));
    }
    const json: unknown = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
    return { status: res.status, body: json as Record<string, unknown> };
  }
}
