import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRuntimeConfig } from '../config/runtime.js';
import { composedRuntimeConfig, COMPOSITION_ELEMENT_ID, pageComposition, resetPageComposition } from './composition.js';

const config = {
  apiOrigin: 'http://api.test',
  filesOrigin: 'http://api.test',
  liveUrl: 'ws://api.test/mqtt',
  remotes: {
    header: 'http://h.test/mf-manifest.json',
    media: 'http://m.test/mf-manifest.json',
    eventOrder: 'http://e.test/mf-manifest.json',
    account: 'http://a.test/mf-manifest.json',
  },
};

/** The page as its server composed it (or did not: the template's directives left in). */
function page(text: string): void {
  document.body.innerHTML = '';
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = COMPOSITION_ELEMENT_ID;
  block.textContent = text;
  document.body.append(block);
}

afterEach(() => {
  resetPageComposition();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the page's composition", () => {
  it('gives the config, the discovery document and the manifests the server could get (a null one is left out)', () => {
    page(
      JSON.stringify({
        config,
        discovery: null,
        manifests: { header: { id: 'header' }, media: null, nope: { id: 'x' } },
      }),
    );
    expect(pageComposition()).toEqual({ config, discovery: null, manifests: { header: { id: 'header' } } });
    expect(composedRuntimeConfig()).toEqual(config);
  });

  it('is none when the server did not fill the template (the development server), and the config is then fetched', async () => {
    page('{"config":<!--# include virtual="/runtime-config.json" -->}');
    expect(pageComposition()).toBeNull();
    const fetchMock = vi.fn(async () => Response.json(config));
    vi.stubGlobal('fetch', fetchMock);
    expect(await loadRuntimeConfig()).toEqual(config);
    expect(fetchMock).toHaveBeenCalledWith('/runtime-config.json', { cache: 'no-store' });
  });

  it('loads the composed config without a request, and fetches one that is not valid', async () => {
    page(JSON.stringify({ config, manifests: {} }));
    const fetchMock = vi.fn(async () => Response.json(config));
    vi.stubGlobal('fetch', fetchMock);
    expect(await loadRuntimeConfig()).toEqual(config);
    expect(fetchMock).not.toHaveBeenCalled();

    resetPageComposition();
    page(JSON.stringify({ config: { ...config, apiOrigin: 'not a url' }, manifests: {} }));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await loadRuntimeConfig()).toEqual(config);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
