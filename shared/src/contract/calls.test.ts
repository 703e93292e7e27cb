import { describe, expect, it } from 'vitest';
import { API_CALLS } from './calls.js';

const calls = Object.entries(API_CALLS);

describe('the call table', () => {
  it('puts every call under /v2', () => {
    for (const [name, spec] of calls) expect(spec.path, name).toMatch(/^\/v2\//);
  });

  it('sends bodies only with POST and queries only with GET', () => {
    /** The calls of these encodings sent with another method than `method`. */
    const notSentWith = (method: string, encodings: string[]) =>
      calls.filter(([, spec]) => encodings.includes(spec.encoding) && spec.method !== method).map(([name]) => name);
    expect(notSentWith('POST', ['form', 'multipart'])).toEqual([]);
    expect(notSentWith('GET', ['query'])).toEqual([]);
  });

  it('has one call per method and path', () => {
    const keys = calls.map(([, spec]) => `${spec.method} ${spec.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('sends the contact form without credentials, and every other call with them (SPEC.md section 7)', () => {
    expect(calls.filter(([, spec]) => !spec.credentials).map(([name]) => name)).toEqual(['submitContactInfo']);
  });

  it('uses the encodings SPEC.md section 7 names', () => {
    expect(API_CALLS.addCartItem.encoding).toBe('form');
    expect(API_CALLS.updateRoles.encoding).toBe('multipart');
    expect(API_CALLS.submitContactInfo.encoding).toBe('multipart');
    expect(API_CALLS.addTarget.encoding).toBe('multipart');
    expect(API_CALLS.updateEventOrderStatus.encoding).toBe('multipart');
    expect(API_CALLS.updateNotificationStatus.encoding).toBe('form');
    expect(API_CALLS.getEventOrderDetails.encoding).toBe('query');
  });
});
